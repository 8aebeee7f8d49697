/**
 * Plain http to another machine (a self-hosted server on an internal host,
 * `http://sentry.internal:9000`): what the user named explicitly (TRACKER_URL/SENTRY_URL,
 * TRACKER_DSN/SENTRY_DSN, `--url`) is used, with one warning; an address found in a repository's
 * files (`.sentryclirc`, `sentry.properties`, `.env`, source code) or sent by the server for one of
 * those is only used with TRACKER_ALLOW_HTTP=1, since whoever wrote the repository chose it.
 * Loopback addresses are this machine: never warned about.
 */
import type { TrackerContext } from "../context.ts";
import type { Dsn } from "./dsn/parse.ts";
import { isLoopbackUrl } from "./env.ts";
import { ConfigError } from "./errors.ts";
import { quoteWord } from "./shell-quote.ts";

/** The variable that lets plain http found in files be used. */
export const ALLOW_HTTP_VAR = "TRACKER_ALLOW_HTTP";

/** True for an http (not https) URL whose host is not this machine. */
export function isPlainHttpRemote(url: string): boolean {
  return URL.parse(url)?.protocol === "http:" && !isLoopbackUrl(url);
}

/** True when TRACKER_ALLOW_HTTP=1. */
export function httpAllowed(env: Record<string, string | undefined>): boolean {
  return env[ALLOW_HTTP_VAR]?.trim() === "1";
}

/** Says `text` on stderr once per run and host. */
function warnOnce(ctx: TrackerContext, host: string, text: string): void {
  const key = `plain-http:${host}`;
  if (ctx.said.has(key)) return;
  ctx.said.add(key);
  ctx.log.warn(text);
}

/** The host of TRACKER_URL/SENTRY_URL when one of them is set, lower case. */
function explicitServiceHost(ctx: TrackerContext): string | undefined {
  const name = ctx.settings.urlVar;
  const raw = name ? ctx.env[name]?.trim() : undefined;
  return raw ? URL.parse(raw)?.hostname.toLowerCase() : undefined;
}

/**
 * Whether a plain-http DSN to another machine may be sent to: TRACKER_DSN/SENTRY_DSN named it, or
 * its host is the service TRACKER_URL/SENTRY_URL names, or TRACKER_ALLOW_HTTP=1; said once. A DSN
 * from the repository's files, or one the server gave for such a service, is refused otherwise.
 */
export function assertDsnTransport(ctx: TrackerContext, dsn: Dsn): void {
  const url = `${dsn.scheme}://${dsn.host}/`;
  if (!isPlainHttpRemote(url)) return;
  const host = URL.parse(url)?.hostname.toLowerCase() ?? dsn.host;
  const envDsn = ctx.settings.dsn?.trim();
  const named =
    envDsn !== undefined && (envDsn === dsn.raw || URL.parse(envDsn)?.hostname.toLowerCase() === host);
  const why = named
    ? (ctx.settings.dsnVar ?? "TRACKER_DSN")
    : explicitServiceHost(ctx) === host
      ? (ctx.settings.urlVar ?? "TRACKER_URL")
      : httpAllowed(ctx.env)
        ? ALLOW_HTTP_VAR
        : undefined;
  if (!why) {
    throw new ConfigError(
      `Refusing to send to ${dsn.host} over plain http: the DSN was found in this project's files, not set by you.`,
      `Use an https DSN, set TRACKER_DSN to the DSN you mean, or set ${ALLOW_HTTP_VAR}=1 to allow plain http from files (plain http to localhost or 127.0.0.1 is always allowed).`,
    );
  }
  warnOnce(
    ctx,
    host,
    `The DSN is plain http (allowed by ${why}): events are sent unencrypted to ${dsn.host}.`,
  );
}

/**
 * Whether a token may go to the plain-http service URL a configuration file named (`label`):
 * only with TRACKER_ALLOW_HTTP=1, said once; ConfigError (exit 20) otherwise.
 */
export function assertFileUrlTransport(ctx: TrackerContext, url: string, label: string): void {
  if (!isPlainHttpRemote(url)) return;
  const host = URL.parse(url)?.host ?? url;
  if (!httpAllowed(ctx.env)) {
    throw new ConfigError(
      `The url in ${label} is plain http (${url}): its token would cross the network unencrypted, so it was not sent.`,
      `Use an https url, set TRACKER_URL=${quoteWord(url)} yourself, or set ${ALLOW_HTTP_VAR}=1 to allow plain http from files.`,
    );
  }
  warnOnce(
    ctx,
    host,
    `The url in ${label} is plain http (allowed by ${ALLOW_HTTP_VAR}): your token is sent unencrypted to ${host}.`,
  );
}

/** The one warning for a plain-http `--url` (TRACKER_URL/SENTRY_URL have their own, env.ts). */
export function warnFlagUrlTransport(ctx: TrackerContext, url: string): void {
  if (!isPlainHttpRemote(url)) return;
  const host = URL.parse(url)?.host ?? url;
  ctx.said.add("insecure-url");
  warnOnce(ctx, host, `--url is plain http: your token is sent unencrypted to ${host}.`);
}
