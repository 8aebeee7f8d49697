/**
 * Where `tracker auth login` checks and stores a credential. A URL a workspace file names
 * (`.sentryclirc`, `sentry.properties`) or the only stored login never decides it: a repository
 * someone else wrote must not choose where a pasted token or a new login is sent. The service is
 * `--url`, else TRACKER_URL/SENTRY_URL, else the hosted service; an org token's own claim wins over
 * all of them (it is only valid there). One stderr line says which.
 */
import type { TrackerContext } from "../../context.ts";
import { configFiles, fileLabel } from "../config/sources.ts";
import { configFileUrl, DEFAULT_BASE_URL, overrideBaseUrl, parseBaseUrl } from "../env.ts";
import { sameServiceUrl } from "../org-token-url.ts";
import { warnFlagUrlTransport } from "../plain-http.ts";
import { quoteWord } from "../shell-quote.ts";
import type { ClassifiedToken } from "./token-kind.ts";

/** The normalised URL an org token's claim names, or undefined when it names none that parses. */
export function orgClaimServiceUrl(kind: ClassifiedToken | undefined): string | undefined {
  if (kind?.kind !== "org" || !kind.claim) return undefined;
  try {
    return parseBaseUrl(kind.claim.url, "the org token's url");
  } catch {
    return undefined;
  }
}

/** The URL and the name of where it came from, before an org token's claim is considered. */
function chosenUrl(ctx: TrackerContext, flagUrl: string | undefined): { url: string; from: string } {
  if (flagUrl !== undefined) return { url: parseBaseUrl(flagUrl, "--url"), from: "--url" };
  const name = ctx.settings.urlVar;
  const raw = name ? ctx.env[name]?.trim() : undefined;
  if (name && raw) return { url: parseBaseUrl(raw, name), from: name };
  return { url: DEFAULT_BASE_URL, from: "default" };
}

/** `; the url in .sentryclirc (…) is not used for logins: …` when a workspace file names another service. */
function fileUrlNote(ctx: TrackerContext, url: string): string {
  const file = configFiles(ctx).find((f) => {
    const u = configFileUrl(f);
    return u !== undefined && !sameServiceUrl(u, url);
  });
  const other = file ? configFileUrl(file) : undefined;
  if (!file || !other) return "";
  return `; the url in ${fileLabel(ctx, file.path)} is not used to log in (to log in there: tracker auth login --url ${quoteWord(other)})`;
}

/**
 * Points the run at the service a login goes to and says which on stderr. Call before anything
 * reads `ctx.settings.baseUrl` for the login.
 */
export function chooseLoginUrl(
  ctx: TrackerContext,
  flagUrl: string | undefined,
  token: ClassifiedToken | undefined,
): void {
  const chosen = chosenUrl(ctx, flagUrl);
  const claim = orgClaimServiceUrl(token);
  if (claim && !sameServiceUrl(claim, chosen.url)) {
    overrideBaseUrl(ctx.settings, claim);
    const ignored = chosen.from === "default" ? "the hosted default" : `${chosen.from} (${chosen.url})`;
    ctx.log.info(`Logging in to ${claim}, the service the org token was issued by; ${ignored} is ignored.`);
    return;
  }
  overrideBaseUrl(ctx.settings, chosen.url);
  if (chosen.from === "--url") warnFlagUrlTransport(ctx, chosen.url);
  const from =
    chosen.from === "default"
      ? "the hosted service; --url or TRACKER_URL names another"
      : `from ${chosen.from}`;
  ctx.log.info(
    `Logging in to ${chosen.url} (${from})${chosen.from === "default" ? fileUrlNote(ctx, chosen.url) : ""}.`,
  );
}
