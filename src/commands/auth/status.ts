import type { TrackerContext } from "../../context.ts";
import { isoFromMs } from "../../lib/format/time.ts";
import { listOrganizations } from "../../lib/api/organizations.ts";
import { type AuthUser, describeUser, fetchAuthUser, fetchOrgOfToken } from "../../lib/auth/login-token.ts";
import { assertSameHost, envToken, type TokenSource } from "../../lib/auth/token.ts";
import { classifyToken, decodeOrgClaim, tokenKindLabel } from "../../lib/auth/token-kind.ts";
import { readCredentials } from "../../lib/db/auth.ts";
import { readDefaults, type StoredDefaults } from "../../lib/db/defaults.ts";
import { detectDsnForStatus } from "../../lib/dsn/detect.ts";
import { ApiError, AuthError, CliError } from "../../lib/errors.ts";
import { SCOPE_HINT } from "../../lib/http/errors.ts";
import type { GlobalFlags } from "../../lib/flags.ts";
import { writeJson, writeLines } from "../../lib/output.ts";
import { maskToken } from "../../lib/redact.ts";

/** The `auth status --json` document. */
export interface AuthStatus {
  authenticated: true;
  /** Where the token in use comes from. */
  source: Exclude<TokenSource, "--token">;
  baseUrl: string;
  token: { kind: string; redacted: string };
  /** ISO time; null when the token does not expire or expiry is not tracked (environment tokens). */
  expiresAt: string | null;
  /** True when a refresh token is stored (OAuth login). */
  refreshable: boolean;
  /** Stored credentials exist but an environment token shadows them. */
  storedShadowed: boolean;
  user: { id: string; name: string | null; username: string | null; email: string | null } | null;
  /** Reachable organizations; null when they could not be listed. */
  organizations: { slug: string; name: string | null }[] | null;
  defaults: StoredDefaults | null;
  /** The detected DSN and where it was found; filled in by DSN detection (context resolution). */
  dsn: { dsn: string; source: string } | null;
}

/** `tracker auth status`: token source, kind, redacted token, expiry, user, organizations, defaults, DSN. */
export default async function authStatus(this: TrackerContext, flags: GlobalFlags): Promise<void> {
  const status = await collectStatus(this);
  if (flags.json) return writeJson(this, status);
  writeLines(this, formatStatus(status, this.now()));
}

async function collectStatus(ctx: TrackerContext): Promise<AuthStatus> {
  const env = envToken(ctx);
  const storedAtStart = readCredentials(ctx);
  if (!env && !storedAtStart) throw new AuthError("not_authenticated");
  if (!env && storedAtStart) assertSameHost(ctx, storedAtStart);
  const kind = env
    ? (classifyToken(env.token)?.kind ?? "other")
    : (storedAtStart?.kind ?? classifyToken(storedAtStart?.token ?? "")?.kind ?? "other");
  const token = env?.token ?? (storedAtStart?.token as string);
  ctx.log.addSecret(token);

  let user: AuthUser | null = null;
  let organizations: AuthStatus["organizations"] = null;
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
    organizations = [org];
  } else {
    user = await fetchAuthUser(ctx);
    organizations = await listOrganizations(ctx).then(
      (orgs) => orgs.map((o) => ({ slug: o.slug, name: o.name })),
      (err) => {
        if (err instanceof AuthError) throw err;
        ctx.log.warn(`Could not list organizations: ${err instanceof CliError ? err.message : String(err)}`);
        return null;
      },
    );
  }
  // Requests above may have refreshed the stored token: report what is stored now.
  const stored = env ? storedAtStart : readCredentials(ctx);
  const current = env ? undefined : stored;
  let defaults: StoredDefaults | null = null;
  try {
    defaults = readDefaults(ctx);
  } catch (err) {
    ctx.log.warn(`Could not read stored defaults: ${err instanceof CliError ? err.message : String(err)}`);
  }
  return {
    authenticated: true,
    source: env?.source ?? "stored",
    baseUrl: ctx.settings.baseUrl,
    token: { kind, redacted: maskToken(current?.token ?? token) },
    expiresAt: current?.expires_at ? isoFromMs(current.expires_at) : null,
    refreshable: !!current?.refresh_token,
    storedShadowed: !!env && !!storedAtStart,
    user: user
      ? { id: user.id, name: user.name ?? null, username: user.username ?? null, email: user.email ?? null }
      : null,
    organizations,
    defaults,
    dsn: detectDsnForStatus(ctx),
  };
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

/** The human form of the status, one `Label: value` line each. */
export function formatStatus(s: AuthStatus, now: number): string[] {
  const source =
    s.source === "stored"
      ? `stored credentials (${s.baseUrl})`
      : `${s.source} environment variable${s.storedShadowed ? " (stored credentials are ignored)" : ""}`;
  const defaults = s.defaults?.org
    ? s.defaults.project
      ? `${s.defaults.org}/${s.defaults.project}`
      : s.defaults.org
    : s.defaults
      ? "none"
      : "unavailable";
  const orgs =
    s.organizations === null
      ? "could not be listed"
      : s.organizations.length === 0
        ? "none"
        : s.organizations.map((o) => o.slug).join(", ");
  const rows: [string, string][] = [
    ["Source", source],
    ["Token", `${s.token.redacted} (${tokenKindLabel(s.token.kind)})`],
    ["Expires", describeExpiry(s, now)],
    ["User", s.user ? describeUser(s.user) : "none (org auth token)"],
    ["Organizations", orgs],
    ["Defaults", defaults],
    ["DSN", s.dsn ? `${s.dsn.dsn} (from ${s.dsn.source})` : "not detected"],
  ];
  return rows.map(([k, val]) => `${`${k}:`.padEnd(15)}${val}`);
}
