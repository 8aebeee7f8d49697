/** Deterministic seed data: users, tokens, organizations in two regions, projects with DSN keys. */
import type { FakeState, SeedOrg, SeedProject, SeedUser, TokenInfo } from "./types.ts";

/** A user token with every scope the CLI uses. */
export const USER_TOKEN = `sntryu_${"a1".repeat(32)}`;
/** A user token with read scopes only (AI analysis POST is forbidden). */
export const READ_ONLY_TOKEN = `sntryu_${"b2".repeat(32)}`;
/** An OAuth-style token (64 hex, no prefix). */
export const OAUTH_TOKEN = "c3".repeat(32);

/** Every scope Sentry knows (the device-code endpoint refuses others with invalid_scope). */
export const SENTRY_SCOPES = [
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

/** All scopes the CLI needs. */
export const ALL_SCOPES = ["org:read", "project:read", "event:read", "event:write", "member:read"] as const;

/** Deterministic 32-hex public key for a project id. */
export function publicKeyFor(projectId: string): string {
  return Bun.hash(`key-${projectId}`).toString(16).padStart(16, "0").repeat(2).slice(0, 32);
}

const USERS: SeedUser[] = [{ id: "12345", name: "Jane Doe", username: "jane", email: "jane@example.com" }];

const ORGS: SeedOrg[] = [
  { id: "100001", slug: "acme", name: "Acme Inc.", region: "us", dateCreated: "2020-01-15T10:00:00.000000Z" },
  {
    id: "100002",
    slug: "globex",
    name: "Globex Corporation",
    region: "de",
    dateCreated: "2021-03-02T09:30:00.000000Z",
  },
  {
    id: "100003",
    slug: "initech",
    name: "Initech",
    region: "us",
    dateCreated: "2022-07-20T12:00:00.000000Z",
  },
];

function project(
  id: string,
  slug: string,
  name: string,
  platform: string,
  org: string,
  extra: Partial<SeedProject> = {},
): SeedProject {
  return {
    id,
    slug,
    name,
    platform,
    org,
    dateCreated: "2021-02-01T08:00:00.000000Z",
    publicKey: publicKeyFor(id),
    dsnStyle: "hosted",
    isMember: true,
    ...extra,
  };
}

const PROJECTS: SeedProject[] = [
  project("300001", "web", "Web", "javascript-react", "acme"),
  project("300002", "api", "API", "python", "acme"),
  project("300003", "mobile-app", "Mobile App", "react-native", "acme"),
  project("300004", "worker", "Worker", "go", "acme", { isMember: false }),
  project("300011", "web", "Globex Web", "javascript", "globex"),
  project("300012", "billing", "Billing", "java", "globex"),
  project("300021", "tps-reports", "TPS Reports", "php", "initech", { dsnStyle: "selfhosted" }),
];

/** A fresh copy of the seed state (each server gets its own, so tests can mutate it). */
export function createSeedState(urls: FakeState["urls"]): FakeState {
  const tokens = new Map<string, TokenInfo>([
    [USER_TOKEN, { userId: "12345", scopes: [...ALL_SCOPES], kind: "user" }],
    [READ_ONLY_TOKEN, { userId: "12345", scopes: ["org:read", "project:read", "event:read"], kind: "user" }],
    [OAUTH_TOKEN, { userId: "12345", scopes: [...ALL_SCOPES], kind: "oauth" }],
  ]);
  return {
    users: USERS.map((u) => ({ ...u })),
    tokens,
    orgs: ORGS.map((o) => ({ ...o })),
    projects: PROJECTS.map((p) => ({ ...p })),
    store: new Map(),
    urls,
  };
}

/** The DSN of a seeded project (hosted style with the org id in the host, or pointing at the control URL). */
export function dsnFor(state: FakeState, p: SeedProject): string {
  const org = state.orgs.find((o) => o.slug === p.org);
  if (p.dsnStyle === "selfhosted") {
    const u = new URL(state.urls.control);
    return `${u.protocol}//${p.publicKey}@${u.host}/${p.id}`;
  }
  return `https://${p.publicKey}@o${org?.id}.ingest.${org?.region}.sentry.io/${p.id}`;
}
