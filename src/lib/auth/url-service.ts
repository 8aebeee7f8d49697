/**
 * A pasted issue or event URL names its service: when it is another stored login's server, the
 * run uses that login (as `TRACKER_URL=<it>` would); it is never looked up by number on the
 * current service, where the same number is some other issue. An environment token belongs to its
 * own service, so with one set a URL of another service is an error instead.
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
  const hint = `Log in there with \`tracker auth login --url ${url.origin}\`, or run with TRACKER_URL=${url.origin}.`;
  if (envToken(ctx)) {
    throw new ConfigError(
      `The URL is on ${url.host}, but the environment token is for ${current.host}.`,
      `Set TRACKER_URL=${url.origin} with a token of that service.`,
    );
  }
  let logins: string[] = [];
  try {
    logins = listLogins(ctx).flatMap((l) => (l.base_url ? [l.base_url] : []));
  } catch {
    // No readable logins: the URL's service is simply not one we are logged in to.
  }
  const match = logins.find((l) => {
    const u = URL.parse(l);
    return u !== null && sameService(url, u);
  });
  if (!match) throw new ConfigError(`The URL is on ${url.host}, and there is no login for it.`, hint);
  overrideBaseUrl(ctx.settings, match);
  ctx.log.info(`Using the login for ${match} (the service of the URL).`);
}
