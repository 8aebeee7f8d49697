import type { TrackerContext } from "../../context.ts";
import { readCredentials, type StoredCredentials } from "../db/auth.ts";
import { AuthError } from "../errors.ts";

/** Where the token in use came from. */
export type TokenSource = "TRACKER_AUTH_TOKEN" | "TRACKER_TOKEN" | "stored";

/** The token a request will carry, with where it came from. */
export interface AuthToken {
  token: string;
  source: TokenSource;
  /** Stored OAuth tokens with a refresh token can be refreshed; env tokens never are. */
  refreshable: boolean;
}

/** The environment token, if any, by precedence TRACKER_AUTH_TOKEN > TRACKER_TOKEN. */
export function envToken(ctx: TrackerContext): AuthToken | undefined {
  if (ctx.settings.authToken)
    return { token: ctx.settings.authToken, source: "TRACKER_AUTH_TOKEN", refreshable: false };
  if (ctx.settings.token) return { token: ctx.settings.token, source: "TRACKER_TOKEN", refreshable: false };
  return undefined;
}

let shadowNoted = false;

/**
 * The token for the next request: TRACKER_AUTH_TOKEN > TRACKER_TOKEN > stored credentials.
 * Stored credentials are only used for the service URL they were issued for, and are refreshed
 * first when close to expiry.
 */
export async function getAuthToken(ctx: TrackerContext): Promise<AuthToken> {
  const env = envToken(ctx);
  if (env) {
    ctx.log.addSecret(env.token);
    if (!shadowNoted) {
      shadowNoted = true;
      const stored = safeReadCredentials(ctx);
      if (stored) ctx.log.info(`Using ${env.source} from the environment; stored credentials are ignored.`);
    }
    return env;
  }
  const stored = readCredentials(ctx);
  if (!stored) throw new AuthError("not_authenticated");
  ctx.log.addSecret(stored.token);
  if (stored.refresh_token) ctx.log.addSecret(stored.refresh_token);
  assertSameHost(ctx, stored);
  const { ensureFreshCredentials } = await import("./refresh.ts");
  const fresh = await ensureFreshCredentials(ctx, stored);
  return { token: fresh.token, source: "stored", refreshable: !!fresh.refresh_token };
}

function safeReadCredentials(ctx: TrackerContext): StoredCredentials | undefined {
  try {
    return readCredentials(ctx);
  } catch {
    return undefined;
  }
}

/** Stored credentials are only sent to the service URL they were issued for. */
export function assertSameHost(ctx: TrackerContext, stored: StoredCredentials): void {
  if (stored.base_url && stored.base_url !== ctx.settings.baseUrl) {
    throw new AuthError(
      "host_scope",
      `Stored credentials were issued for ${stored.base_url}, not ${ctx.settings.baseUrl}; the token was not sent.`,
      `Run \`tracker auth login\` with TRACKER_URL=${ctx.settings.baseUrl}, or unset TRACKER_URL to use ${stored.base_url}.`,
    );
  }
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
