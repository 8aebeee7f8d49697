import type { TrackerContext } from "../../context.ts";
import { isoFromMs } from "../../lib/format/time.ts";
import { listOrganizations } from "../../lib/api/organizations.ts";
import { type AuthUser, describeUser, fetchAuthUser, fetchOrgOfToken } from "../../lib/auth/login-token.ts";
import { assertSameHost, envToken, noStoredLogin, type TokenSource } from "../../lib/auth/token.ts";
import { classifyToken, decodeOrgClaim, tokenKindLabel } from "../../lib/auth/token-kind.ts";
import { listLogins, readCredentials } from "../../lib/db/auth.ts";
import { readDefaults, type StoredDefaults } from "../../lib/db/defaults.ts";
import { detectDsnForStatus } from "../../lib/dsn/detect.ts";
import { ApiError, AuthError, type AuthReason, CliError } from "../../lib/errors.ts";
import { SCOPE_HINT } from "../../lib/http/errors.ts";
import type { GlobalFlags } from "../../lib/flags.ts";
import { writeJson, writeLines, writeTip } from "../../lib/output.ts";
import { maskToken } from "../../lib/redact.ts";
import { oneLine } from "../../lib/format/one-line.ts";

/** The `auth status --json` document: always one, logged in or not. */
export interface AuthStatus {
  /** A token is in use for this service URL and the service did not reject it. */
  authenticated: boolean;
  /** Why not, when not authenticated. */
  reason: AuthReason | null;
  baseUrl: string;
  /** Where the token in use comes from; null without one. */
  source: Exclude<TokenSource, "--token"> | null;
  token: { kind: string; redacted: string } | null;
  /** ISO time; null when the token does not expire or expiry is not tracked (environment tokens). */
  expiresAt: string | null;
  /** True when a refresh token is stored (OAuth login). */
  refreshable: boolean;
  /** Stored credentials exist but an environment token shadows them. */
  storedShadowed: boolean;
  /** A stored login that belongs to another service URL (not used here); the first of them. */
  storedLogin: { baseUrl: string | null } | null;
  /** Every stored login, one per service URL; `active` marks the one of this service URL. */
  logins: StoredLogin[];
  user: { id: string; name: string | null; username: string | null; email: string | null } | null;
  /** Reachable organizations; null when they could not be listed. */
  organizations: { slug: string; name: string | null }[] | null;
  /** The service could not be asked (network, server error): the token is present but unverified. */
  serviceError: string | null;
  defaults: StoredDefaults | null;
  /** The detected DSN and where it was found; filled in by DSN detection (context resolution). */
  dsn: { dsn: string; source: string } | null;
}

/** One stored login as `auth status` lists it. */
export interface StoredLogin {
  baseUrl: string | null;
  kind: string | null;
  /** Who logged in, as stored at login. */
  user: string | null;
  expiresAt: string | null;
  active: boolean;
}

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
 * organizations). Not being logged in is a state it reports, not a failure: exit 0, with the way
 * to log in on stderr; the --json document says `"authenticated": false` and why.
 */
export default async function authStatus(this: TrackerContext, flags: GlobalFlags): Promise<void> {
  const { status, hint } = await collectStatus(this);
  if (flags.json) return writeJson(this, status);
  writeLines(this, formatStatus(status, this.now()));
  if (hint) writeTip(this, hint);
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
  if (!env && !storedAtStart) {
    const err = noStoredLogin(ctx);
    return { status: notLoggedIn(ctx, err.reason, null), hint: err.hint };
  }
  if (!env && storedAtStart) {
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
  const kind = env
    ? (classifyToken(env.token)?.kind ?? "other")
    : (storedAtStart?.kind ?? classifyToken(storedAtStart?.token ?? "")?.kind ?? "other");
  const token = env?.token ?? (storedAtStart?.token as string);
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
  const stored = env ? storedAtStart : readCredentials(ctx);
  const current = env ? undefined : stored;
  return {
    status: {
      authenticated: !rejected,
      reason: rejected?.reason ?? null,
      source: env?.source ?? "stored",
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

function describeExpiry(s: AuthStatus, now: number): string {
  if (s.source !== "stored") return "not tracked (environment token)";
  if (!s.expiresAt) return "never";
  const ms = Date.parse(s.expiresAt) - now;
  if (ms <= 0) return `${s.expiresAt} (expired)`;
  const hours = ms / 3_600_000;
  const rel =
    hours >= 48
      ? `${Math.floor(hours / 24)} days`
      : hours >= 1
        ? `${Math.floor(hours)} h`
        : `${Math.ceil(ms / 60_000)} min`;
  return `${s.expiresAt} (in ${rel}${s.refreshable ? ", refreshed automatically" : ""})`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function sourceLabel(s: AuthStatus): string {
  return s.source === "stored" ? "stored login" : `${s.source ?? "no token"}`;
}

/** The first line, as `gh auth status` states it. */
export function headline(s: AuthStatus): string {
  const host = hostOf(s.baseUrl);
  if (!s.authenticated) {
    const why =
      s.reason === "host_scope"
        ? ` (${
            s.logins.length > 1
              ? `stored logins are for ${s.logins.map((l) => l.baseUrl ?? "an unknown service").join(", ")}`
              : `the stored login is for ${s.storedLogin?.baseUrl ?? s.logins[0]?.baseUrl ?? "an unknown service"}`
          })`
        : s.reason === "invalid"
          ? " (the token was rejected)"
          : s.reason === "expired"
            ? " (the session expired)"
            : "";
    return `Not logged in to ${host}${why}`;
  }
  const who = s.user
    ? describeUser(s.user)
    : s.organizations?.[0]
      ? `an org token of ${s.organizations[0].slug}`
      : null;
  if (s.serviceError) return `Logged in to ${host} (${sourceLabel(s)}); not verified: ${s.serviceError}`;
  return `Logged in to ${host}${who ? ` as ${who}` : ""} (${sourceLabel(s)})`;
}

/** The human form of the status: the headline, then one `Label: value` line each. */
export function formatStatus(s: AuthStatus, now: number): string[] {
  const defaults = s.defaults?.org
    ? s.defaults.project
      ? `${s.defaults.org}/${s.defaults.project}`
      : s.defaults.org
    : s.defaults
      ? "none"
      : "unavailable";
  const dsn = s.dsn ? `${s.dsn.dsn} (from ${s.dsn.source})` : "not detected";
  const rows: [string, string][] = [];
  if (s.token) {
    const source =
      s.source === "stored"
        ? `stored credentials (${s.baseUrl})`
        : `${s.source} environment variable${s.storedShadowed ? " (stored credentials are ignored)" : ""}`;
    const orgs =
      s.organizations === null
        ? "could not be listed"
        : s.organizations.length === 0
          ? "none"
          : s.organizations.map((o) => o.slug).join(", ");
    rows.push(
      ["Source", source],
      ["Token", `${s.token.redacted} (${tokenKindLabel(s.token.kind)})`],
      ["Expires", describeExpiry(s, now)],
      [
        "User",
        s.user
          ? describeUser(s.user)
          : s.authenticated && !s.serviceError
            ? "none (org auth token)"
            : "unknown",
      ],
      ["Organizations", orgs],
    );
  }
  for (const l of s.logins) {
    const who = l.user ? ` as ${l.user}` : "";
    rows.push(["Stored login", `${l.baseUrl ?? "an unknown service"}${who}${l.active ? " (active)" : ""}`]);
  }
  if (s.logins.length === 0 && s.storedLogin)
    rows.push(["Stored login", `for ${s.storedLogin.baseUrl ?? "an unknown service"}`]);
  rows.push(["Defaults", defaults], ["DSN", dsn]);
  // One line per field: server text (user names, slugs) cannot add rows of its own.
  return [oneLine(headline(s)), ...rows.map(([k, val]) => `${`${k}:`.padEnd(15)}${oneLine(val)}`)];
}
