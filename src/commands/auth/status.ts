import type { TrackerContext } from "../../context.ts";
import { isoFromMs } from "../../lib/format/time.ts";
import { listOrganizations } from "../../lib/api/organizations.ts";
import { type AuthUser, describeUser, fetchAuthUser, fetchOrgOfToken } from "../../lib/auth/login-token.ts";
import { assertSameHost, configFileToken, envToken, noStoredLogin } from "../../lib/auth/token.ts";
import { classifyToken, decodeOrgClaim } from "../../lib/auth/token-kind.ts";
import { listLogins, readCredentials } from "../../lib/db/auth.ts";
import { readDefaults, type StoredDefaults } from "../../lib/db/defaults.ts";
import { detectDsnForStatus } from "../../lib/dsn/detect.ts";
import { ApiError, AuthError, type AuthReason, CliError } from "../../lib/errors.ts";
import { SCOPE_HINT } from "../../lib/http/errors.ts";
import type { GlobalFlags } from "../../lib/flags.ts";
import { writeTip } from "../../lib/output.ts";
import { writeDocView } from "../../lib/view/render.ts";
import { maskToken } from "../../lib/redact.ts";
import {
  AUTH_STATUS_VIEW,
  type AuthStatus,
  headline,
  type StoredLogin,
} from "../../lib/format/auth-status.ts";

function storedLogins(ctx: TrackerContext): StoredLogin[] {
  try {
    return listLogins(ctx).map((l) => {
      let user: string | null = null;
      try {
        user = l.user_json ? describeUser(JSON.parse(l.user_json) as AuthUser) : null;
      } catch {
        user = null;
      }
      return {
        baseUrl: l.base_url,
        kind: l.kind,
        user,
        expiresAt: l.expires_at ? isoFromMs(l.expires_at) : null,
        active: l.base_url === ctx.settings.baseUrl,
      };
    });
  } catch (err) {
    ctx.log.warn(`Could not read stored logins: ${err instanceof CliError ? err.message : String(err)}`);
    return [];
  }
}

/**
 * `tracker auth status`: the result first (as `gh auth status` puts it), then the local state
 * (token source, kind, redacted token, expiry, defaults, DSN) and what the service says (user,
 * organizations). Not being logged in is reported in full (the way to log in on stderr; the --json
 * document says `"authenticated": false` and why), then the run exits with that reason's code (10
 * without a token), so `tracker auth status || tracker auth login` works.
 */
export default async function authStatus(this: TrackerContext, flags: GlobalFlags): Promise<void> {
  const { status, hint } = await collectStatus(this);
  await writeDocView(this, flags.json, AUTH_STATUS_VIEW, { status, hint });
  if (hint && !flags.json) writeTip(this, hint);
  if (!status.authenticated) throw new NotAuthenticatedExit(status.reason ?? "not_authenticated");
}

/** The end of a status that was not authenticated: its exit code, nothing more printed in text mode. */
class NotAuthenticatedExit extends AuthError {
  /** The status above already said why and what to do. */
  readonly quiet = true;
}

function readDefaultsOrWarn(ctx: TrackerContext): StoredDefaults | null {
  try {
    return readDefaults(ctx);
  } catch (err) {
    ctx.log.warn(`Could not read stored defaults: ${err instanceof CliError ? err.message : String(err)}`);
    return null;
  }
}

/** The document when no usable token is there: the local state and the reason. */
function notLoggedIn(
  ctx: TrackerContext,
  reason: AuthReason,
  storedLogin: AuthStatus["storedLogin"],
): AuthStatus {
  const logins = storedLogins(ctx);
  const other = logins.find((l) => !l.active);
  return {
    authenticated: false,
    reason,
    baseUrl: ctx.settings.baseUrl,
    source: null,
    token: null,
    expiresAt: null,
    refreshable: false,
    storedShadowed: false,
    storedLogin: storedLogin ?? (other ? { baseUrl: other.baseUrl } : null),
    logins,
    user: null,
    organizations: null,
    serviceError: null,
    defaults: readDefaultsOrWarn(ctx),
    dsn: detectDsnForStatus(ctx),
  };
}

async function collectStatus(ctx: TrackerContext): Promise<{ status: AuthStatus; hint?: string }> {
  const env = envToken(ctx);
  const storedAtStart = readCredentials(ctx);
  // A configuration file's token, when neither the environment nor a login for this URL has one.
  const file =
    !env && (!storedAtStart?.base_url || storedAtStart.base_url !== ctx.settings.baseUrl)
      ? configFileToken(ctx)
      : undefined;
  const direct = env ?? file;
  if (!direct && !storedAtStart) {
    const err = noStoredLogin(ctx);
    return { status: notLoggedIn(ctx, err.reason, null), hint: err.hint };
  }
  if (!direct && storedAtStart) {
    try {
      assertSameHost(ctx, storedAtStart);
    } catch (err) {
      if (!(err instanceof AuthError)) throw err;
      return {
        status: notLoggedIn(ctx, err.reason, { baseUrl: storedAtStart.base_url }),
        hint: err.hint,
      };
    }
  }
  const kind = direct
    ? (classifyToken(direct.token)?.kind ?? "other")
    : (storedAtStart?.kind ?? classifyToken(storedAtStart?.token ?? "")?.kind ?? "other");
  const token = direct?.token ?? (storedAtStart?.token as string);
  ctx.log.addSecret(token);

  let user: AuthUser | null = null;
  let organizations: AuthStatus["organizations"] = null;
  let rejected: AuthError | undefined;
  let serviceError: string | null = null;
  try {
    ({ user, organizations } = await askService(ctx, kind, token));
  } catch (err) {
    if (err instanceof AuthError) rejected = err;
    else if (err instanceof CliError) serviceError = err.message;
    else throw err;
  }
  // Requests above may have refreshed (or dropped) the stored token: report what is stored now.
  const stored = direct ? storedAtStart : readCredentials(ctx);
  const current = direct ? undefined : stored;
  return {
    status: {
      authenticated: !rejected,
      reason: rejected?.reason ?? null,
      source: direct?.source ?? "stored",
      ...(file?.path ? { sourcePath: file.path } : {}),
      baseUrl: ctx.settings.baseUrl,
      token: { kind, redacted: maskToken(current?.token ?? token) },
      expiresAt: current?.expires_at ? isoFromMs(current.expires_at) : null,
      refreshable: !!current?.refresh_token,
      storedShadowed: !!env && !!storedAtStart,
      storedLogin: null,
      logins: storedLogins(ctx),
      user: user
        ? { id: user.id, name: user.name ?? null, username: user.username ?? null, email: user.email ?? null }
        : null,
      organizations,
      serviceError,
      defaults: readDefaultsOrWarn(ctx),
      dsn: detectDsnForStatus(ctx),
    },
    ...(rejected ? { hint: rejected.hint } : {}),
  };
}

/** The service's side: the user (or the org of an org token) and the reachable organizations. */
async function askService(
  ctx: TrackerContext,
  kind: string,
  token: string,
): Promise<{ user: AuthUser | null; organizations: AuthStatus["organizations"] }> {
  const claim = kind === "org" ? decodeOrgClaim(token) : undefined;
  if (claim) {
    const org = await fetchOrgOfToken(ctx, claim).catch((err) => {
      // A valid org token with only `org:ci` cannot read its own organization (403, not 401).
      if (err instanceof ApiError && err.status === 403 && claim.org) {
        ctx.log.warn(`This org token cannot read organization ${claim.org}. ${SCOPE_HINT}`);
        return { slug: claim.org, name: null };
      }
      throw err;
    });
    return { user: null, organizations: [org] };
  }
  const user = await fetchAuthUser(ctx);
  const organizations = await listOrganizations(ctx).then(
    (orgs) => orgs.map((o) => ({ slug: o.slug, name: o.name })),
    (err) => {
      if (err instanceof AuthError) throw err;
      ctx.log.warn(`Could not list organizations: ${err instanceof CliError ? err.message : String(err)}`);
      return null;
    },
  );
  return { user, organizations };
}

export { type AuthStatus, headline, type StoredLogin };
