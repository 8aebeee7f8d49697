/**
 * Where an environment token may go. TRACKER_URL/SENTRY_URL beside it name its service; an org
 * token's claim names its own (and wins over both, said once). A URL that only a configuration
 * file names never decides it: with such a file and no URL variable the token is sent nowhere
 * (sentry-cli 3.8 ignores the file's URL, the reference stops; sending a self-hosted token to
 * sentry.io is the one thing that must not happen).
 */
import type { TrackerContext } from "../../context.ts";
import { configFiles, fileLabel } from "../config/sources.ts";
import { configFileUrl, isHostedUrl, maskUserinfo, parseBaseUrl } from "../env.ts";
import { ConfigError } from "../errors.ts";
import { ignoredUrlNote } from "../org-token-url.ts";
import { quoteWord } from "../shell-quote.ts";
import { decodeOrgClaim } from "./token-kind.ts";

function claimsItsService(token: string): boolean {
  const claim = decodeOrgClaim(token);
  if (!claim) return false;
  try {
    parseBaseUrl(claim.url);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks, before an environment token is sent, that its service was named by the environment
 * or by the token itself; a ConfigError (exit 20) naming both sources when only a configuration
 * file names one. Says once which URL variable an org token's claim overrode.
 */
export function assertEnvTokenTarget(ctx: TrackerContext, token: string, source: string): void {
  const s = ctx.settings;
  // Reading the URL resolves it (and records a URL variable the org token's claim overrode).
  const baseUrl = s.baseUrl;
  const note = ignoredUrlNote(s, source);
  if (note && !ctx.said.has("org-token-url")) {
    ctx.said.add("org-token-url");
    ctx.log.warn(note);
  }
  if (s.urlVar || claimsItsService(token)) return;
  const file = configFiles(ctx).find((f) => {
    if (!f.values.url) return false;
    const url = configFileUrl(f);
    return url === undefined || !isHostedUrl(url);
  });
  if (!file?.values.url) return;
  const label = fileLabel(ctx, file.path);
  const named = configFileUrl(file) ?? maskUserinfo(file.values.url);
  throw new ConfigError(
    `${source} comes from the environment, but the service URL ${named} only from ${label}: a configuration file does not choose where an environment token goes, so it was not sent (to ${baseUrl} or anywhere else).`,
    `Set TRACKER_URL or SENTRY_URL beside the token (export TRACKER_URL=${quoteWord(named)}), or put the token in ${label} and unset ${source}.`,
  );
}
