/**
 * Extra request headers for a service behind an access proxy (sentry-cli's `--header 'K: V'`,
 * `SENTRY_CUSTOM_HEADERS` one per line, sentry-cli's single `CUSTOM_HEADER`). They go on requests
 * to the service and its regions only (where the token may go: isTrustedRegionUrl), never to
 * another host; a request carrying them follows no redirect.
 */
import { ConfigError } from "../errors.ts";
import { isTrustedRegionUrl } from "./url.ts";

// Headers tracker sets itself: a custom one would replace the token or break the body.
const RESERVED = new Set(["authorization", "host", "content-length", "content-type", "transfer-encoding"]);
const NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The custom headers of an environment, validated (a bad line is a ConfigError naming the variable). */
export function customHeaders(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const variable of ["CUSTOM_HEADER", "SENTRY_CUSTOM_HEADERS"] as const) {
    for (const line of (env[variable] ?? "").split(/\r?\n/)) {
      if (line.trim() === "") continue;
      const colon = line.indexOf(":");
      const name = colon > 0 ? line.slice(0, colon).trim() : "";
      const value = colon > 0 ? line.slice(colon + 1).trim() : "";
      if (!NAME.test(name) || /[\0\r\n]/.test(value)) {
        throw new ConfigError(
          `${variable} (or --header) has a line that is not 'Name: value'.`,
          "Give each header as 'Name: value', one per line (e.g. --header 'CF-Access-Client-Id: abc').",
        );
      }
      if (RESERVED.has(name.toLowerCase())) {
        throw new ConfigError(
          `${variable} (or --header) may not set ${name}: tracker sets it itself.`,
          "Give the token with --auth-token or TRACKER_AUTH_TOKEN.",
        );
      }
      out[name] = value;
    }
  }
  return out;
}

/** The custom headers for a request to `url` of the service at `baseUrl`: none for another host. */
export function customHeadersFor(
  env: Readonly<Record<string, string | undefined>>,
  baseUrl: string,
  url: string,
): Record<string, string> {
  if (!env.SENTRY_CUSTOM_HEADERS?.trim() && !env.CUSTOM_HEADER?.trim()) return {};
  return isTrustedRegionUrl(baseUrl, url) ? customHeaders(env) : {};
}
