import type { TrackerContext } from "../../context.ts";
import { fileLabel, fileTokenForService, skippedFileTokens } from "../config/sources.ts";
import { otherLoginUrls, readCredentials, type StoredCredentials } from "../db/auth.ts";
import { AuthError } from "../errors.ts";
import { warnInsecureUrlOnce } from "../env.ts";
import { assertFileUrlTransport } from "../plain-http.ts";
import { assertEnvTokenTarget } from "./env-token-target.ts";
import { parseScopeList } from "./scopes.ts";
import { ORG_TOKEN_PREFIX } from "./token-kind.ts";

/** Org auth tokens carry `org:ci` (API.md §8.1); other tokens' scopes are only known from a login. */
function knownScopes(token: string): readonly string[] | undefined {
  return token.startsWith(ORG_TOKEN_PREFIX) ? ["org:ci"] : undefined;
}

function withScopes<T extends AuthToken>(t: T): T {
  const scopes = knownScopes(t.token);
  return scopes ? { ...t, scopes } : t;
}

/** The environment variables a token may come from, by precedence. */
export type EnvTokenSource = "TRACKER_AUTH_TOKEN" | "TRACKER_TOKEN" | "SENTRY_AUTH_TOKEN";

/**
 * Where the token in use came from; `--token` is a pasted token being verified before it is
 * stored; `.sentryclirc` and `sentry.properties` are Sentry configuration files (`path` says which).
 */
export type TokenSource = EnvTokenSource | "stored" | "--token" | ".sentryclirc" | "sentry.properties";

/** The token a request will carry, with where it came from. */
export interface AuthToken {
  token: string;
  source: TokenSource;
  /** Stored OAuth tokens with a refresh token can be refreshed; env and file tokens never are. */
  refreshable: boolean;
  /** The configuration file of a file token. */
  path?: string;
  /** The token's scopes when known (granted at login; `org:ci` for an org token), for the 403 hint. */
  scopes?: readonly string[];
}

/**
 * The environment token, if any, by precedence TRACKER_AUTH_TOKEN > TRACKER_TOKEN >
 * SENTRY_AUTH_TOKEN. Never stored.
 */
export function envToken(ctx: TrackerContext): (AuthToken & { source: EnvTokenSource }) | undefined {
  if (ctx.settings.authToken)
    return { token: ctx.settings.authToken, source: "TRACKER_AUTH_TOKEN", refreshable: false };
  if (ctx.settings.token)
    return {
      token: ctx.settings.token,
      source: ctx.settings.tokenVar ?? "TRACKER_TOKEN",
      refreshable: false,
    };
  return undefined;
}

/**
 * The token of a Sentry configuration file meant for this service URL (its own `url`, or the
 * hosted service when it names none); never sent anywhere else. Ranks below stored credentials.
 */
export function configFileToken(
  ctx: TrackerContext,
): (AuthToken & { source: ".sentryclirc" | "sentry.properties" }) | undefined {
  const found = fileTokenForService(ctx);
  if (!found) return undefined;
  ctx.log.addSecret(found.token);
  return {
    token: found.token,
    source: found.file.kind === "properties" ? "sentry.properties" : ".sentryclirc",
    refreshable: false,
    path: found.file.path,
  };
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
 * The token for the next request: TRACKER_AUTH_TOKEN > TRACKER_TOKEN > SENTRY_AUTH_TOKEN > stored
 * credentials > a configuration file's token. Stored credentials are only used for the service URL
 * they were issued for, and are refreshed first when close to expiry; a file's token only for its
 * file's URL.
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
    assertEnvTokenTarget(ctx, env.token, env.source);
    if (!ctx.said.has("token-shadow")) {
      ctx.said.add("token-shadow");
      const stored = safeReadCredentials(ctx);
      if (stored) ctx.log.info(shadowNote(env.source));
    }
    return withScopes(env);
  }
  const stored = readCredentials(ctx);
  if (!stored?.base_url || stored.base_url !== ctx.settings.baseUrl) {
    const file = configFileToken(ctx);
    if (file) {
      assertHeaderSafe(file.token, file.path ?? file.source);
      assertFileUrlTransport(ctx, ctx.settings.baseUrl, file.path ? fileLabel(ctx, file.path) : file.source);
      ctx.log.debug(`Auth: using the token in ${file.path} (for ${ctx.settings.baseUrl})`);
      return withScopes(file);
    }
  }
  if (!stored) throw noStoredLogin(ctx);
  ctx.log.addSecret(stored.token);
  if (stored.refresh_token) ctx.log.addSecret(stored.refresh_token);
  assertHeaderSafe(stored.token, "the stored login");
  assertSameHost(ctx, stored);
  const { ensureFreshCredentials } = await import("./refresh.ts");
  const fresh = await ensureFreshCredentials(ctx, stored);
  const scopes = parseScopeList(stored.scopes) ?? knownScopes(fresh.token);
  return {
    token: fresh.token,
    source: "stored",
    refreshable: !!fresh.refresh_token,
    ...(scopes ? { scopes } : {}),
  };
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
  const files = skippedFileTokens(ctx);
  if (others.length === 0) {
    const plain = new AuthError("not_authenticated");
    return files ? new AuthError("not_authenticated", plain.message, `${files}\n${plain.hint}`) : plain;
  }
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
    `${files ? `${files}\n` : ""}Run \`tracker auth login\` to log in to ${ctx.settings.baseUrl}, ${use}.`,
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
  return {
    token: fresh.token,
    source: "stored",
    refreshable: !!fresh.refresh_token,
    ...(used.scopes ? { scopes: used.scopes } : {}),
  };
}
