/**
 * The organization an org auth token names (`sntrys_…`, its unsigned `org` claim, API.md §8.1):
 * with only such a token in CI, it is the organization when nothing else names one. The token
 * looked at is the one requests would carry: TRACKER_AUTH_TOKEN/TRACKER_TOKEN/SENTRY_AUTH_TOKEN,
 * else the stored login of this service URL, else a configuration file's token for it.
 */
import type { TrackerContext } from "../../context.ts";
import { decodeOrgClaim, ORG_TOKEN_PREFIX } from "../auth/token-kind.ts";
import { readCredentials } from "../db/auth.ts";
import { SLUG_RE } from "../resolve/url.ts";

function storedToken(ctx: TrackerContext): string | undefined {
  try {
    return readCredentials(ctx)?.token;
  } catch {
    // An unreadable store names no organization; the command that needs it reports that itself.
    return undefined;
  }
}

/**
 * The slug of the org token's organization, when the token in use is an org token that names one;
 * `fileToken` is the configuration file's token meant for this service URL, if any.
 */
export function tokenOrgLayer(ctx: TrackerContext, fileToken?: () => string | undefined): string | undefined {
  const s = ctx.settings;
  const token = s.authToken ?? s.token ?? storedToken(ctx) ?? fileToken?.();
  if (!token?.startsWith(ORG_TOKEN_PREFIX)) return undefined;
  const org = decodeOrgClaim(token)?.org ?? undefined;
  return org && SLUG_RE.test(org) ? org : undefined;
}
