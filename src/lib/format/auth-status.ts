/**
 * `auth status`: its JSON document's shape and its view (a headline, then one `Label: value` line
 * per field, server text kept on its line).
 */
import type { TokenSource } from "../auth/token.ts";
import { describeUser } from "../auth/login-token.ts";
import { tokenKindLabel } from "../auth/token-kind.ts";
import type { StoredDefaults } from "../db/defaults.ts";
import type { AuthReason } from "../errors.ts";
import type { DocView } from "../view/doc.ts";
import { oneLine } from "./one-line.ts";

/** The `auth status --json` document: always one, logged in or not. */
export interface AuthStatus {
  /** A token is in use for this service URL and the service did not reject it. */
  authenticated: boolean;
  /** Why not, when not authenticated. */
  reason: AuthReason | null;
  baseUrl: string;
  /** Where the token in use comes from; null without one. */
  source: Exclude<TokenSource, "--token"> | null;
  /** The configuration file of a `.sentryclirc`/`sentry.properties` token (absent otherwise). */
  sourcePath?: string;
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

function isFileSource(s: AuthStatus): boolean {
  return s.source === ".sentryclirc" || s.source === "sentry.properties";
}

function describeExpiry(s: AuthStatus, now: number): string {
  if (isFileSource(s)) return "not tracked (configuration file token)";
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

/** The `Source:` line: the variable, the stored login, or the file (with its path). */
function describeSource(s: AuthStatus): string {
  if (s.source === "stored") return `stored credentials (${s.baseUrl})`;
  if (isFileSource(s)) return `${s.source} (${s.sourcePath ?? "unknown path"})`;
  return `${s.source} environment variable${s.storedShadowed ? " (stored credentials are ignored)" : ""}`;
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

/** The fields under the headline, each a `Label: value` line. */
function statusRows(s: AuthStatus, now: number): [string, string][] {
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
    const source = describeSource(s);
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
  return rows;
}

/** A status and what to do about it (the way to log in; said on stderr by a text run). */
export interface AuthStatusReport {
  status: AuthStatus;
  hint?: string | undefined;
}

/**
 * The status as people read it: the headline, then one `Label: value` line per field, each on
 * one line (server text such as user names and slugs cannot add rows of its own).
 */
export const AUTH_STATUS_VIEW: DocView<AuthStatusReport> = {
  name: "auth status",
  id: "baseUrl",
  document: (r) => r.status,
  sections: (r, c) => [
    { block: { kind: "lines", lines: [oneLine(headline(r.status))] } },
    { block: { kind: "pairs", pairs: statusRows(r.status, c.now), column: 15 }, tight: true },
    { heading: "Hint", block: { kind: "lines", lines: r.hint ? [r.hint] : [] }, markdownOnly: true },
  ],
};
