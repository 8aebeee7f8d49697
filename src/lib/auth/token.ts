import type { TrackerContext } from "../../context.ts";
import { otherLoginUrls, readCredentials, type StoredCredentials } from "../db/auth.ts";
import { AuthError } from "../errors.ts";
import { warnInsecureUrlOnce } from "../env.ts";

/** Where the token in use came from; `--token` is a pasted token being verified before it is stored. */
export type TokenSource = "TRACKER_AUTH_TOKEN" | "TRACKER_TOKEN" | "stored" | "--token";

/** The token a request will carry, with where it came from. */
export interface AuthToken {
  token: string;
  source: TokenSource;
  /** Stored OAuth tokens with a refresh token can be refreshed; env tokens never are. */
  refreshable: boolean;
}

/** The environment token, if any, by precedence TRACKER_AUTH_TOKEN > TRACKER_TOKEN. */
export function envToken(
  ctx: TrackerContext,
): (AuthToken & { source: "TRACKER_AUTH_TOKEN" | "TRACKER_TOKEN" }) | undefined {
  if (ctx.settings.authToken)
    return { token: ctx.settings.authToken, source: "TRACKER_AUTH_TOKEN", refreshable: false };
  if (ctx.settings.token) return { token: ctx.settings.token, source: "TRACKER_TOKEN", refreshable: false };
  return undefined;
}

const CANDIDATE = Symbol("candidateToken");

/**
 * A context whose requests carry `token` instead of the configured one: used to verify a pasted
 * token (or a fresh OAuth token) before it replaces the stored credentials.
 */
export function withCandidateToken(ctx: TrackerContext, token: string): TrackerContext {
  ctx.log.addSecret(token);
  return Object.assign(Object.create(ctx) as TrackerContext, { [CANDIDATE]: token });
}

function candidateToken(ctx: TrackerContext): string | undefined {
  const t = (ctx as unknown as Record<symbol, unknown>)[CANDIDATE];
  return typeof t === "string" ? t : undefined;
}

/**
 * The token for the next request: TRACKER_AUTH_TOKEN > TRACKER_TOKEN > stored credentials.
 * Stored credentials are only used for the service URL they were issued for, and are refreshed
 * first when close to expiry.
 */
export async function getAuthToken(ctx: TrackerContext): Promise<AuthToken> {
  // A token is about to be sent: say once if it would cross the network unencrypted.
  warnInsecureUrlOnce(ctx);
  const candidate = candidateToken(ctx);
  if (candidate) return { token: candidate, source: "--token", refreshable: false };
  const env = envToken(ctx);
  if (env) {
    ctx.log.addSecret(env.token);
    assertHeaderSafe(env.token, env.source);
    if (!ctx.said.has("token-shadow")) {
      ctx.said.add("token-shadow");
      const stored = safeReadCredentials(ctx);
      if (stored) ctx.log.info(shadowNote(env.source));
    }
    return env;
  }
  const stored = readCredentials(ctx);
  if (!stored) throw noStoredLogin(ctx);
  ctx.log.addSecret(stored.token);
  if (stored.refresh_token) ctx.log.addSecret(stored.refresh_token);
  assertHeaderSafe(stored.token, "the stored login");
  assertSameHost(ctx, stored);
  const { ensureFreshCredentials } = await import("./refresh.ts");
  const fresh = await ensureFreshCredentials(ctx, stored);
  return { token: fresh.token, source: "stored", refreshable: !!fresh.refresh_token };
}

/**
 * A token with whitespace or control characters inside (`TRACKER_TOKEN=$'abc\ndef'`) cannot be a
 * token and cannot go into an Authorization header: it is invalid (exit 12) before any request.
 */
export function assertHeaderSafe(token: string, source: string): void {
  if (/[\s\x00-\x1f\x7f-\x9f]/.test(token)) {
    throw new AuthError(
      "invalid",
      `The token from ${source} contains whitespace or control characters.`,
      "Copy the token again without line breaks or spaces.",
    );
  }
}

/** The note printed once when an environment token shadows stored credentials. */
export function shadowNote(source: TokenSource): string {
  return `Using ${source} from the environment; stored credentials are ignored.`;
}

/** Stored credentials, or undefined when there are none or the database cannot be read. */
export function safeReadCredentials(ctx: TrackerContext): StoredCredentials | undefined {
  try {
    return readCredentials(ctx);
  } catch {
    return undefined;
  }
}

/**
 * The error when no login is stored for the current service URL: not logged in at all, or logged
 * in elsewhere, with the exact TRACKER_URL that selects each other login (and "unset" only when
 * TRACKER_URL is set and unsetting it would select the one other login).
 */
export function noStoredLogin(ctx: TrackerContext): AuthError {
  const others = otherLoginUrls(ctx);
  if (others.length === 0) return new AuthError("not_authenticated");
  const urlSet = !!ctx.env.TRACKER_URL?.trim();
  const use =
    others.length === 1
      ? urlSet
        ? `or unset TRACKER_URL to use the login for ${others[0]}`
        : `or set TRACKER_URL=${others[0]} to use that login`
      : `or set TRACKER_URL to one of ${others.map((u) => `TRACKER_URL=${u}`).join(", ")}`;
  return new AuthError(
    "host_scope",
    `No stored login for ${ctx.settings.baseUrl} (tracker has ${others.length === 1 ? "a login" : "logins"} for ${others.join(", ")}); no token was sent.`,
    `Run \`tracker auth login\` to log in to ${ctx.settings.baseUrl}, ${use}.`,
  );
}

/** Stored credentials are only sent to the service URL they were issued for. */
export function assertSameHost(ctx: TrackerContext, stored: StoredCredentials): void {
  // A login whose service URL is unknown (a repair re-added the column after a downgrade) is
  // never sent anywhere: it could belong to any server.
  if (!stored.base_url) {
    throw new AuthError(
      "not_authenticated",
      "The stored login does not say which service it belongs to; the token was not sent.",
      "Run `tracker auth login` again (in CI, set TRACKER_AUTH_TOKEN).",
    );
  }
  if (stored.base_url !== ctx.settings.baseUrl) throw noStoredLogin(ctx);
}

/** After a 401: one forced refresh of a stored OAuth token; undefined when no refresh is possible. */
export async function refreshAfterUnauthorized(
  ctx: TrackerContext,
  used: AuthToken,
): Promise<AuthToken | undefined> {
  if (used.source !== "stored" || !used.refreshable) return undefined;
  const { forceRefresh } = await import("./refresh.ts");
  const fresh = await forceRefresh(ctx, used.token);
  return { token: fresh.token, source: "stored", refreshable: !!fresh.refresh_token };
}
