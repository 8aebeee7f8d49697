/**
 * Token scopes: what `auth login` asks for, and which scopes each endpoint tracker calls needs
 * (API.md §8.2, §18 and §21.1: Sentry's permission classes), so a 403 can name the missing one.
 */
import { ValidationError } from "../errors.ts";

/** Every scope a Sentry token can carry (what `--scope` accepts). */
export const KNOWN_SCOPES = [
  "org:read",
  "org:write",
  "org:admin",
  "org:integrations",
  "org:ci",
  "member:read",
  "member:write",
  "member:admin",
  "member:invite",
  "team:read",
  "team:write",
  "team:admin",
  "project:read",
  "project:write",
  "project:admin",
  "project:releases",
  "project:distribution",
  "event:read",
  "event:write",
  "event:admin",
  "alerts:read",
  "alerts:write",
] as const;

/**
 * What tracker's own commands need: organizations and projects (org:read, project:read), issues
 * and events (event:read, event:write for status changes and AI analysis), and releases, deploys,
 * commits and uploads (project:releases, accepted by Sentry's release and chunk-upload permissions).
 */
export const LOGIN_SCOPES = [
  "org:read",
  "project:read",
  "project:releases",
  "event:read",
  "event:write",
] as const;

/** `auth login --read-only`: a token that can read everything tracker shows and change nothing. */
export const READ_ONLY_SCOPES = ["org:read", "project:read", "event:read"] as const;

/** Scopes that allow a change (refused together with --read-only). */
export function isWriteScope(scope: string): boolean {
  return !scope.endsWith(":read");
}

/** Parses one `--scope` value: a scope Sentry knows (`project:releases`), else ValidationError. */
export function parseScope(raw: string): string {
  const s = raw.trim().toLowerCase();
  if ((KNOWN_SCOPES as readonly string[]).includes(s)) return s;
  throw new ValidationError(`Unknown scope '${raw}'. Scopes: ${KNOWN_SCOPES.join(", ")}.`, "scope");
}

/**
 * The scopes a device-flow login asks for: the defaults (or the read-only set) plus `extra`, in a
 * stable order without repeats. A write scope with `readOnly` is a ValidationError.
 */
export function loginScopes(opts: { readOnly?: boolean; extra?: readonly string[] }): string[] {
  const extra = opts.extra ?? [];
  if (opts.readOnly) {
    const writes = extra.filter(isWriteScope);
    if (writes.length > 0) {
      throw new ValidationError(
        `--read-only asks for a token that cannot change anything; ${writes.join(", ")} would allow changes.`,
        "scope",
      );
    }
  }
  const base: readonly string[] = opts.readOnly ? READ_ONLY_SCOPES : LOGIN_SCOPES;
  return [...new Set([...base, ...extra])];
}

const RELEASE_WRITE = ["project:releases", "project:write", "project:admin", "org:ci"] as const;
const RELEASE_READ = [
  "project:read",
  "project:releases",
  "project:write",
  "project:admin",
  "org:ci",
] as const;

/** One row of the endpoint → scopes table: methods, a path pattern, the scopes that allow it (any one). */
interface ScopeRule {
  methods: readonly string[];
  path: RegExp;
  anyOf: readonly string[];
}

const WRITE = ["POST", "PUT", "DELETE"] as const;
const ANY = ["GET", "POST", "PUT", "DELETE"] as const;

/**
 * Which scopes Sentry accepts for each endpoint tracker calls, first match wins (API.md §8.2,
 * §18 `OrganizationReleasePermission`, §21.1 chunk upload and assemble).
 */
export const ENDPOINT_SCOPES: readonly ScopeRule[] = [
  { methods: ANY, path: /\/organizations\/[^/]+\/chunk-upload\/$/, anyOf: RELEASE_WRITE },
  { methods: WRITE, path: /\/(files\/difs|artifactbundle)\/assemble\/$/, anyOf: RELEASE_WRITE },
  { methods: WRITE, path: /\/organizations\/[^/]+\/releases\//, anyOf: RELEASE_WRITE },
  { methods: ["GET"], path: /\/organizations\/[^/]+\/releases\//, anyOf: RELEASE_READ },
  {
    methods: ["GET"],
    path: /\/organizations\/[^/]+\/repos\/$/,
    anyOf: ["org:read", "org:integrations", "org:ci"],
  },
  { methods: WRITE, path: /\/(issues|groups)\//, anyOf: ["event:write", "event:admin"] },
  { methods: ["POST"], path: /\/autofix\//, anyOf: ["event:write", "event:admin"] },
  {
    methods: ["GET"],
    path: /\/projects\/[^/]+\/[^/]+\/keys\/$/,
    anyOf: ["project:read", "project:write", "project:admin"],
  },
  {
    methods: ["GET"],
    path: /\/(issues|groups|events|trace|trace-logs|trace-items|shortids|events-timeseries)\//,
    anyOf: ["event:read", "event:write", "event:admin"],
  },
  { methods: ["GET"], path: /\/projects\//, anyOf: ["project:read", "project:write", "project:admin"] },
  { methods: ["GET"], path: /\/organizations\//, anyOf: ["org:read", "org:write", "org:admin"] },
];

/**
 * The scopes of which `endpoint` (`METHOD /api/0/…`) needs one, or undefined when the table does
 * not know it.
 */
export function scopesForEndpoint(endpoint: string): readonly string[] | undefined {
  const [method = "GET", rawPath = ""] = endpoint.split(" ", 2);
  const path = rawPath.split("?")[0] ?? "";
  return ENDPOINT_SCOPES.find((r) => r.methods.includes(method.toUpperCase()) && r.path.test(path))?.anyOf;
}

/**
 * The 403 hint: the scopes the endpoint accepts, the scopes the token has (when known), and the
 * way to a token that has one (a new login for a stored login, a new token otherwise); undefined
 * when the endpoint is not in the table.
 */
export function scopeHint(
  endpoint: string,
  token: { scopes?: readonly string[]; source?: string } | undefined,
): string | undefined {
  const needed = scopesForEndpoint(endpoint);
  if (!needed) return undefined;
  const [method = "", path = ""] = endpoint.split(" ", 2);
  const need = needed.length === 1 ? `the scope ${needed[0]}` : `one of the scopes ${needed.join(", ")}`;
  const has = token?.scopes;
  const known =
    has === undefined
      ? " The token's scopes are not known here (see them where it was created)."
      : has.length === 0
        ? " The token has no scopes."
        : ` The token has ${has.join(", ")}.`;
  const missing = has === undefined || !needed.some((s) => has.includes(s));
  const byLogin = needed.some((s) => (LOGIN_SCOPES as readonly string[]).includes(s));
  const fix = !missing
    ? ""
    : token?.source === "stored" && byLogin
      ? ` Run \`tracker auth login\` again (it asks for ${LOGIN_SCOPES.join(" ")}).`
      : ` Use a token created with ${needed[0]}${byLogin ? ", or unset it and run `tracker auth login`" : ""}.`;
  return `${method} ${path.split("?")[0]} needs ${need}.${known}${fix}`;
}

/** Parses a stored or granted scope list (`"org:read project:read"`); undefined when there is none. */
export function parseScopeList(text: string | null | undefined): string[] | undefined {
  if (text === null || text === undefined) return undefined;
  return text.split(/[\s,]+/).filter(Boolean);
}
