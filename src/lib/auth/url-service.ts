/**
 * A pasted issue or event URL names its service: when it is another stored login's server, the
 * run uses that login (as `TRACKER_URL=<it>` would); it is never looked up by number on the
 * current service, where the same number is some other issue. An environment token belongs to its
 * own service, so with one set such a URL is an error instead. A URL of a server without a stored
 * login (a mirror, a renamed host) is read on the current service, as before.
 */
import type { TrackerContext } from "../../context.ts";
import { listLogins } from "../db/auth.ts";
import { isHostedHost, overrideBaseUrl } from "../env.ts";
import { ConfigError } from "../errors.ts";
import { looksLikeUrl } from "../resolve/url.ts";
import { envToken } from "./token.ts";

/** Two URLs of the same service: both hosted (any *.sentry.io), or the same origin. */
function sameService(a: URL, b: URL): boolean {
  if (isHostedHost(a.hostname) || isHostedHost(b.hostname))
    return isHostedHost(a.hostname) && isHostedHost(b.hostname);
  return a.origin === b.origin;
}

/**
 * Points the run at the service of a pasted URL when it is not the current one. Call before any
 * request of the run. A reference that is not a URL, or a URL of the current service, changes nothing.
 */
export function useServiceOfUrl(ctx: TrackerContext, raw: string): void {
  if (!looksLikeUrl(raw)) return;
  const url = URL.parse(raw.trim());
  const current = URL.parse(ctx.settings.baseUrl);
  if (!url || !current || sameService(url, current)) return;
  let logins: string[] = [];
  try {
    logins = listLogins(ctx).flatMap((l) => (l.base_url ? [l.base_url] : []));
  } catch {
    // No readable logins: nothing to move to.
  }
  const match = logins.find((l) => {
    const u = URL.parse(l);
    return u !== null && sameService(url, u);
  });
  if (!match) return;
  if (envToken(ctx)) {
    throw new ConfigError(
      `The URL is on ${url.host}, but the environment token is for ${current.host}.`,
      `Unset the environment token to use the stored login for ${match}, or set TRACKER_URL=${url.origin} with a token of that service.`,
    );
  }
  overrideBaseUrl(ctx.settings, match);
  ctx.log.info(`Using the login for ${match} (the service of the URL).`);
}
