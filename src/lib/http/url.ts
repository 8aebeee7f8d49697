/**
 * Where a request goes: the control host, an organization's region or a base URL; the URL built
 * from it; which region URLs may receive the token; and redirects that would leave the service.
 */
import type { TrackerContext } from "../../context.ts";
import { isHostedHost } from "../env.ts";
import { ConfigError } from "../errors.ts";
import { quoteWord } from "../shell-quote.ts";

/** Where a request goes: the control host, an organization's region, or an absolute base URL. */
export type Host = "control" | { org: string } | { baseUrl: string };

/** Query parameter values; arrays repeat the key. */
export type QueryValue = string | number | boolean | undefined | null | readonly (string | number)[];

/** Builds a URL from base, path and query (arrays repeat the key; undefined values are skipped). */
export function buildUrl(base: string, path: string, query?: Record<string, QueryValue>): string {
  const url = new URL(base.replace(/\/+$/, "") + path);
  for (const [k, val] of Object.entries(query ?? {})) {
    if (val === undefined || val === null) continue;
    if (Array.isArray(val)) for (const item of val) url.searchParams.append(k, String(item));
    else url.searchParams.append(k, String(val));
  }
  return url.toString();
}

/**
 * True when a server-provided region URL may receive the token: same scheme and hostname as the
 * base URL (any port), or an https sentry.io host when the base is hosted Sentry.
 */
export function isTrustedRegionUrl(baseUrl: string, regionUrl: string): boolean {
  try {
    const base = new URL(baseUrl);
    const region = new URL(regionUrl);
    if (isHostedHost(base.hostname)) return region.protocol === "https:" && isHostedHost(region.hostname);
    return region.protocol === base.protocol && region.hostname === base.hostname;
  } catch {
    return false;
  }
}

/** Resolves the base URL a request goes to. */
export async function baseUrlFor(ctx: TrackerContext, host: Host | undefined): Promise<string> {
  if (!host || host === "control") return ctx.settings.baseUrl;
  if ("baseUrl" in host) return host.baseUrl;
  return ctx.regions.urlForOrg(ctx, host.org);
}

/**
 * A redirect to another origin (host, port or scheme): fetch drops the token on the way, so the
 * answer would read as "not authenticated". Said as what it is, with the address to use instead.
 */
export function crossOriginRedirect(from: string, to: string): ConfigError | undefined {
  const a = URL.parse(from);
  const b = URL.parse(to);
  if (!a || !b || a.origin === b.origin) return undefined;
  return new ConfigError(
    `${a.origin} redirected the request to ${b.origin}; tracker sends the token only to the service it belongs to, so it stopped there.`,
    `If the service moved, point tracker at it: TRACKER_URL=${quoteWord(b.origin)} (and \`tracker auth login --url ${quoteWord(b.origin)}\` for a stored login).`,
  );
}
