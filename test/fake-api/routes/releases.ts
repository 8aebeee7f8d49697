/**
 * Releases, commits, deploys and repositories (API.md §18.1, §18.2), in the published shapes:
 * create is get-or-create by version (201, or 208 Already Reported when nothing changed), the
 * version and environment are validated like Sentry does, PUT `commits` replaces the list,
 * `previous-with-commits` answers `{}` when there is none, and deleting a release that issues
 * refer to is refused. Scopes (`OrganizationReleasePermission`): reads take project:read|write|
 * admin|releases or org:ci, changes project:write|admin|releases or org:ci.
 *
 * The seed matches triage.ts's `releaseExists`: every project has `<slug>@1.4.0` and
 * `<slug>@1.5.0`, and each organization has `1.2.3` (all its projects). acme/web's releases carry
 * commits, deploys and health data.
 */
import { FAKE_NOW_MS } from "../clock.ts";
import { detail, json, notFound, paginate } from "../http.ts";
import type { FakeRequest, FakeState, Route, SeedOrg, SeedProject } from "../types.ts";
import { canSeeOrg, findOrg } from "./orgs.ts";

/** Scopes that may read releases. */
export const RELEASE_READ_SCOPES = [
  "project:read",
  "project:write",
  "project:admin",
  "project:releases",
  "org:ci",
];
/** Scopes that may change releases. */
export const RELEASE_WRITE_SCOPES = ["project:write", "project:admin", "project:releases", "org:ci"];

/** A commit as stored (the request's shape). */
export interface FakeCommit {
  id: string;
  repository: string;
  message?: string | null;
  author_name?: string | null;
  author_email?: string | null;
  timestamp?: string | null;
  patch_set?: { path: string; type: string }[];
}

/** A deploy and the project ids it covers. */
export interface FakeDeploy {
  id: string;
  environment: string;
  dateStarted: string | null;
  dateFinished: string;
  name: string | null;
  url: string | null;
  projectIds: string[];
}

/** Session health of a release in one project. */
export interface FakeHealth {
  adoption: number;
  crashFreeSessions: number;
  crashFreeUsers: number;
  totalSessions: number;
}

/** A release of the fake. */
export interface FakeRelease {
  id: number;
  org: string;
  version: string;
  ref: string | null;
  url: string | null;
  dateCreated: string;
  dateReleased: string | null;
  projectIds: string[];
  commits: FakeCommit[];
  refs: unknown[];
  deploys: FakeDeploy[];
  newGroups: number;
  status: "open" | "archived";
  health: Record<string, FakeHealth>;
}

/** The module's part of the server state. */
export interface ReleaseStore {
  releases: FakeRelease[];
  repos: Record<string, { id: string; name: string; url: string; status: string }[]>;
  nextId: number;
}

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** Commits of acme/web's seeded releases, newest first. */
export const WEB_COMMITS = {
  "1.4.0": ["a1b2c3d4e5f60718293a4b5c6d7e8f9012345678", "b2c3d4e5f60718293a4b5c6d7e8f901234567890"],
  "1.5.0": [
    "c3d4e5f60718293a4b5c6d7e8f90123456789012",
    "d4e5f60718293a4b5c6d7e8f9012345678901234",
    "e5f60718293a4b5c6d7e8f901234567890123456",
  ],
} as const;

function seedCommits(shas: readonly string[], ageMs: number): FakeCommit[] {
  const people = [
    ["Jane Doe", "jane@example.com"],
    ["Bob Stone", "bob@example.com"],
  ];
  return shas.map((id, i) => ({
    id,
    repository: "acme/web",
    message: `change ${i + 1}`,
    author_name: people[i % 2]?.[0] as string,
    author_email: people[i % 2]?.[1] as string,
    timestamp: iso(FAKE_NOW_MS - ageMs - i * 3_600_000),
    patch_set: [{ path: `src/file${i}.ts`, type: "M" }],
  }));
}

function buildStore(state: FakeState): ReleaseStore {
  const releases: FakeRelease[] = [];
  let id = 1;
  const add = (
    org: string,
    version: string,
    projects: SeedProject[],
    ageMs: number,
    extra: Partial<FakeRelease>,
  ) =>
    releases.push({
      id: id++,
      org,
      version,
      ref: null,
      url: null,
      dateCreated: iso(FAKE_NOW_MS - ageMs),
      dateReleased: null,
      projectIds: projects.map((p) => p.id),
      commits: [],
      refs: [],
      deploys: [],
      newGroups: 0,
      status: "open",
      health: {},
      ...extra,
    });
  for (const org of state.orgs) {
    const projects = state.projects.filter((p) => p.org === org.slug);
    add(org.slug, "1.2.3", projects, 120 * DAY_MS, { dateReleased: iso(FAKE_NOW_MS - 120 * DAY_MS) });
    for (const p of projects) {
      const web = org.slug === "acme" && p.slug === "web";
      const deploy = (n: number, env: string, ageMs: number): FakeDeploy => ({
        id: String(n),
        environment: env,
        dateStarted: iso(FAKE_NOW_MS - ageMs - 600_000),
        dateFinished: iso(FAKE_NOW_MS - ageMs),
        name: null,
        url: null,
        projectIds: [p.id],
      });
      add(org.slug, `${p.slug}@1.4.0`, [p], 30 * DAY_MS, {
        dateReleased: iso(FAKE_NOW_MS - 30 * DAY_MS + 3_600_000),
        ...(web
          ? {
              commits: seedCommits(WEB_COMMITS["1.4.0"], 31 * DAY_MS),
              deploys: [deploy(1, "production", 29 * DAY_MS)],
              health: {
                [p.id]: {
                  adoption: 3.5,
                  crashFreeSessions: 98.25,
                  crashFreeUsers: 99.1,
                  totalSessions: 1200,
                },
              },
            }
          : {}),
      });
      add(org.slug, `${p.slug}@1.5.0`, [p], 3 * DAY_MS, {
        ...(web
          ? {
              ref: "c3d4e5f",
              dateReleased: iso(FAKE_NOW_MS - 3 * DAY_MS + 3_600_000),
              commits: seedCommits(WEB_COMMITS["1.5.0"], 4 * DAY_MS),
              deploys: [deploy(2, "staging", 3 * DAY_MS - 7_200_000), deploy(3, "production", 2 * DAY_MS)],
              newGroups: 2,
              health: {
                [p.id]: {
                  adoption: 91.4,
                  crashFreeSessions: 99.5,
                  crashFreeUsers: 99.8,
                  totalSessions: 48000,
                },
              },
            }
          : {}),
      });
    }
  }
  const repo = (n: string, name: string) => ({
    id: n,
    name,
    url: `https://github.com/${name}`,
    status: "active",
  });
  return {
    releases,
    repos: {
      acme: [repo("7001", "acme/web"), repo("7002", "acme/api")],
      globex: [repo("7011", "globex/billing")],
    },
    nextId: 1000,
  };
}

/** The release data of a server (built on first use; tests may change it). */
export function releaseStore(state: FakeState): ReleaseStore {
  let s = state.store.get("releases") as ReleaseStore | undefined;
  if (!s) {
    s = buildStore(state);
    state.store.set("releases", s);
  }
  return s;
}

/** A release of an org by version. */
export function findRelease(state: FakeState, org: string, version: string): FakeRelease | undefined {
  return releaseStore(state).releases.find((r) => r.org === org && r.version === version);
}

function serializeDeploy(d: FakeDeploy) {
  return {
    id: d.id,
    environment: d.environment,
    dateStarted: d.dateStarted,
    dateFinished: d.dateFinished,
    name: d.name,
    url: d.url,
  };
}

function serializeCommit(c: FakeCommit) {
  return {
    id: c.id,
    message: c.message ?? null,
    dateCreated: c.timestamp ?? null,
    author: c.author_email ? { name: c.author_name ?? null, email: c.author_email } : null,
    repository: { name: c.repository },
  };
}

/** The release object of the API (`health` adds projects[].healthData). */
export function serializeRelease(state: FakeState, r: FakeRelease, health = false) {
  const latest = [...r.deploys].sort((a, b) => b.dateFinished.localeCompare(a.dateFinished))[0];
  const authors = new Map<string, { name: string | null; email: string }>();
  for (const c of r.commits)
    if (c.author_email) authors.set(c.author_email, { name: c.author_name ?? null, email: c.author_email });
  const at = r.version.lastIndexOf("@");
  const projects = r.projectIds.map((pid) => {
    const p = state.projects.find((x) => x.id === pid) as SeedProject;
    const h = r.health[pid];
    return {
      id: Number(p.id),
      slug: p.slug,
      name: p.name,
      newGroups: r.newGroups,
      platform: p.platform,
      platforms: [p.platform],
      hasHealthData: h !== undefined,
      ...(health && h
        ? {
            healthData: {
              adoption: h.adoption,
              sessionsAdoption: h.adoption,
              crashFreeSessions: h.crashFreeSessions,
              crashFreeUsers: h.crashFreeUsers,
              totalSessions: h.totalSessions,
              totalUsers: Math.round(h.totalSessions / 4),
            },
          }
        : {}),
    };
  });
  return {
    id: r.id,
    version: r.version,
    shortVersion: at > 0 ? r.version.slice(at + 1) : r.version,
    status: r.status,
    versionInfo: {
      package: at > 0 ? r.version.slice(0, at) : null,
      version: { raw: r.version.slice(at + 1) },
    },
    ref: r.ref,
    url: r.url,
    dateReleased: r.dateReleased,
    dateCreated: r.dateCreated,
    data: {},
    newGroups: r.newGroups,
    owner: null,
    commitCount: r.commits.length,
    lastCommit: r.commits[0] ? serializeCommit(r.commits[0]) : null,
    deployCount: r.deploys.length,
    lastDeploy: latest ? serializeDeploy(latest) : null,
    authors: [...authors.values()],
    projects,
    firstEvent: r.newGroups > 0 ? iso(Date.parse(r.dateCreated) + 600_000) : null,
    lastEvent: r.newGroups > 0 ? iso(FAKE_NOW_MS - 300_000) : null,
    currentProjectMeta: {},
    userAgent: null,
  };
}

function orgOr404(req: FakeRequest): SeedOrg | Response {
  const org = findOrg(req.state, req.params.org ?? "");
  return org && canSeeOrg(req, org) ? org : notFound();
}

function releaseOr404(req: FakeRequest): { org: SeedOrg; release: FakeRelease } | Response {
  const org = orgOr404(req);
  if (org instanceof Response) return org;
  const release = findRelease(req.state, org.slug, req.params.version ?? "");
  return release ? { org, release } : notFound();
}

function parseBody(req: FakeRequest): Record<string, unknown> | Response {
  try {
    const body = JSON.parse(req.body || "{}");
    if (typeof body === "object" && body !== null && !Array.isArray(body)) return body;
  } catch {
    // fall through
  }
  return detail(400, "Malformed request.");
}

/** Sentry's version rules: 400 `{"version": [...]}` or undefined when valid. */
function versionError(v: unknown): Response | undefined {
  if (typeof v !== "string" || v.trim() === "")
    return json({ version: ["This field may not be blank."] }, 400);
  if (v.length > 200) return json({ version: ["Ensure this field has no more than 200 characters."] }, 400);
  if (/[\r\n\f\t/\\]/.test(v) || [".", "..", "latest"].includes(v))
    return json({ version: [`Release with name ${v} is not allowed`] }, 400);
  return undefined;
}

/** Validates `commits` (ids required, ≤ 64) and `refs` (repositories connected); an error response or undefined. */
function commitsOrRefsError(
  state: FakeState,
  org: string,
  body: Record<string, unknown>,
): Response | undefined {
  if (body.commits !== undefined) {
    if (!Array.isArray(body.commits))
      return json({ commits: ['Expected a list of items but got type "dict".'] }, 400);
    for (const c of body.commits as Record<string, unknown>[]) {
      if (typeof c?.id !== "string" || c.id === "" || c.id.length > 64)
        return json({ commits: ["id: This field is required (at most 64 characters)."] }, 400);
    }
  }
  if (body.refs !== undefined) {
    const known = new Set((releaseStore(state).repos[org] ?? []).map((r) => r.name));
    const refs = Array.isArray(body.refs) ? (body.refs as Record<string, unknown>[]) : [];
    const bad = refs.map((r) => String(r?.repository)).filter((n) => !known.has(n));
    if (bad.length > 0) return json({ refs: [`Invalid repository names: ${bad.join(",")}`] }, 400);
  }
  return undefined;
}

function applyCommits(r: FakeRelease, body: Record<string, unknown>): void {
  if (Array.isArray(body.commits)) {
    r.commits = (body.commits as FakeCommit[]).map((c) => ({
      ...c,
      repository: c.repository ?? `organization-${r.org}`,
    }));
  }
  if (Array.isArray(body.refs)) r.refs = body.refs;
}

function listOrgReleases(req: FakeRequest): Response {
  const org = orgOr404(req);
  if (org instanceof Response) return org;
  const orgProjects = req.state.projects.filter((p) => p.org === org.slug);
  const ids = req.query.getAll("project");
  if (ids.some((i) => !/^-?\d+$/.test(i)))
    return detail(400, "Invalid project parameter. Values must be numbers.");
  if (ids.some((i) => i !== "-1" && !orgProjects.some((p) => p.id === i)))
    return detail(403, "You do not have permission to perform this action.");
  const scope = new Set(ids.length === 0 || ids.includes("-1") ? orgProjects.map((p) => p.id) : ids);
  const sort = req.query.get("sort") ?? "date";
  const sessionSorts = [
    "crash_free_sessions",
    "crash_free_users",
    "sessions",
    "users",
    "sessions_24h",
    "users_24h",
    "adoption",
  ];
  if (!["date", "build", "semver", ...sessionSorts].includes(sort)) return detail(400, "invalid sort");
  if (sessionSorts.includes(sort) && req.query.get("flatten") !== "1")
    return detail(400, "sorting by crash statistics requires flattening (flatten=1)");
  const query = (req.query.get("query") ?? "").toLowerCase();
  const status = req.query.get("status") ?? "open";
  const metric = (r: FakeRelease) => {
    const hs = r.projectIds.filter((p) => scope.has(p)).map((p) => r.health[p]);
    const h = hs.find((x) => x !== undefined);
    if (!h) return -1;
    return sort.startsWith("crash_free") ? h.crashFreeSessions : h.totalSessions;
  };
  const rows = releaseStore(req.state)
    .releases.filter(
      (r) =>
        r.org === org.slug &&
        r.status === status &&
        r.projectIds.some((p) => scope.has(p)) &&
        r.version.toLowerCase().includes(query),
    )
    .sort(
      (a, b) =>
        (sort === "date" ? 0 : metric(b) - metric(a)) ||
        b.dateCreated.localeCompare(a.dateCreated) ||
        b.id - a.id,
    )
    .map((r) => serializeRelease(req.state, r, req.query.get("health") === "1"));
  return paginate(req, rows, { sizeParam: "per_page", defaultSize: 25 });
}

function listProjectReleases(req: FakeRequest): Response {
  const org = orgOr404(req);
  if (org instanceof Response) return org;
  const p = req.state.projects.find(
    (x) => x.org === org.slug && (x.slug === req.params.project || x.id === req.params.project),
  );
  if (!p) return notFound();
  const query = (req.query.get("query") ?? "").toLowerCase();
  const at = (r: FakeRelease) => r.dateReleased ?? r.dateCreated;
  const rows = releaseStore(req.state)
    .releases.filter(
      (r) => r.org === org.slug && r.projectIds.includes(p.id) && r.version.toLowerCase().includes(query),
    )
    .sort((a, b) => at(b).localeCompare(at(a)) || b.id - a.id)
    .map((r) => serializeRelease(req.state, r));
  return paginate(req, rows, { sizeParam: "per_page", defaultSize: 25 });
}

function createRelease(req: FakeRequest): Response {
  const org = orgOr404(req);
  if (org instanceof Response) return org;
  const body = parseBody(req);
  if (body instanceof Response) return body;
  const bad = versionError(body.version);
  if (bad) return bad;
  if (!Array.isArray(body.projects) || body.projects.length === 0)
    return json({ projects: ["This field is required."] }, 400);
  const projects = (body.projects as unknown[]).map((ref) =>
    req.state.projects.find((p) => p.org === org.slug && (p.slug === String(ref) || p.id === String(ref))),
  );
  if (projects.some((p) => p === undefined)) return json({ projects: ["Invalid project ids or slugs"] }, 400);
  const invalid = commitsOrRefsError(req.state, org.slug, body);
  if (invalid) return invalid;
  const store = releaseStore(req.state);
  const version = body.version as string;
  let release = findRelease(req.state, org.slug, version);
  let changed = false;
  if (!release) {
    release = {
      id: store.nextId++,
      org: org.slug,
      version,
      ref: typeof body.ref === "string" ? body.ref : null,
      url: typeof body.url === "string" ? body.url : null,
      dateCreated: iso(FAKE_NOW_MS),
      dateReleased: typeof body.dateReleased === "string" ? body.dateReleased : null,
      projectIds: [],
      commits: [],
      refs: [],
      deploys: [],
      newGroups: 0,
      status: "open",
      health: {},
    };
    store.releases.push(release);
    changed = true;
  }
  for (const p of projects as SeedProject[]) {
    if (!release.projectIds.includes(p.id)) {
      release.projectIds.push(p.id);
      changed = true;
    }
  }
  applyCommits(release, body);
  return json(serializeRelease(req.state, release), changed ? 201 : 208);
}

function updateRelease(req: FakeRequest): Response {
  const found = releaseOr404(req);
  if (found instanceof Response) return found;
  const body = parseBody(req);
  if (body instanceof Response) return body;
  const invalid = commitsOrRefsError(req.state, found.org.slug, body);
  if (invalid) return invalid;
  const r = found.release;
  if ("ref" in body) r.ref = (body.ref as string | null) ?? null;
  if ("url" in body) r.url = (body.url as string | null) ?? null;
  if ("dateReleased" in body) {
    const d = body.dateReleased;
    if (d !== null && (typeof d !== "string" || Number.isNaN(Date.parse(d))))
      return json({ dateReleased: ["Datetime has wrong format."] }, 400);
    r.dateReleased = d as string | null;
  }
  if (body.status === "open" || body.status === "archived") r.status = body.status;
  applyCommits(r, body);
  return json(serializeRelease(req.state, r));
}

function deleteRelease(req: FakeRequest): Response {
  const found = releaseOr404(req);
  if (found instanceof Response) return found;
  if (found.release.newGroups > 0)
    return detail(400, "This release is referenced by active issues and cannot be removed.");
  const store = releaseStore(req.state);
  store.releases = store.releases.filter((r) => r !== found.release);
  return new Response(null, { status: 204 });
}

function previousWithCommits(req: FakeRequest): Response {
  const found = releaseOr404(req);
  if (found instanceof Response) return found;
  const r = found.release;
  const prev = releaseStore(req.state)
    .releases.filter(
      (x) =>
        x.org === r.org &&
        x !== r &&
        x.commits.length > 0 &&
        x.dateCreated < r.dateCreated &&
        x.projectIds.some((p) => r.projectIds.includes(p)),
    )
    .sort((a, b) => b.dateCreated.localeCompare(a.dateCreated))[0];
  return json(prev ? serializeRelease(req.state, prev) : {});
}

function listDeploys(req: FakeRequest): Response {
  const found = releaseOr404(req);
  if (found instanceof Response) return found;
  const latest = new Map<string, FakeDeploy>();
  for (const d of [...found.release.deploys].sort((a, b) => b.dateFinished.localeCompare(a.dateFinished))) {
    for (const p of d.projectIds)
      if (!latest.has(`${p}/${d.environment}`)) latest.set(`${p}/${d.environment}`, d);
  }
  const rows = [...new Set(latest.values())].map(serializeDeploy);
  return paginate(req, rows, { sizeParam: "per_page", defaultSize: 25 });
}

function createDeploy(req: FakeRequest): Response {
  const found = releaseOr404(req);
  if (found instanceof Response) return found;
  const body = parseBody(req);
  if (body instanceof Response) return body;
  const env = body.environment;
  if (typeof env !== "string" || env === "" || env.length > 64 || /[/\r\n]/.test(env))
    return json({ environment: ["Invalid value for environment"] }, 400);
  const r = found.release;
  const store = releaseStore(req.state);
  const deploy: FakeDeploy = {
    id: String(store.nextId++),
    environment: env,
    dateStarted: typeof body.dateStarted === "string" ? body.dateStarted : null,
    dateFinished: typeof body.dateFinished === "string" ? body.dateFinished : iso(FAKE_NOW_MS),
    name: typeof body.name === "string" ? body.name : null,
    url: typeof body.url === "string" ? body.url : null,
    projectIds: [...r.projectIds],
  };
  r.deploys.push(deploy);
  return json(serializeDeploy(deploy), 201);
}

const RELEASE = "/api/0/organizations/:org/releases/:version/";
const read = (pattern: string, handler: Route["handler"]): Route => ({
  method: "GET",
  pattern,
  hosts: "region",
  scopes: RELEASE_READ_SCOPES,
  handler,
});
const write = (method: string, pattern: string, handler: Route["handler"]): Route => ({
  method,
  pattern,
  hosts: "region",
  scopes: RELEASE_WRITE_SCOPES,
  handler,
});

/** Routes of this module. */
export const releaseRoutes: Route[] = [
  read("/api/0/organizations/:org/releases/", listOrgReleases),
  write("POST", "/api/0/organizations/:org/releases/", createRelease),
  read("/api/0/projects/:org/:project/releases/", listProjectReleases),
  read(RELEASE, (req) => {
    const found = releaseOr404(req);
    return found instanceof Response
      ? found
      : json(serializeRelease(req.state, found.release, req.query.get("health") === "1"));
  }),
  write("PUT", RELEASE, updateRelease),
  write("DELETE", RELEASE, deleteRelease),
  read(`${RELEASE}commits/`, (req) => {
    const found = releaseOr404(req);
    return found instanceof Response
      ? found
      : paginate(req, found.release.commits.map(serializeCommit), { sizeParam: "per_page", defaultSize: 25 });
  }),
  read(`${RELEASE}previous-with-commits/`, previousWithCommits),
  read(`${RELEASE}deploys/`, listDeploys),
  write("POST", `${RELEASE}deploys/`, createDeploy),
  {
    method: "GET",
    pattern: "/api/0/organizations/:org/repos/",
    hosts: "region",
    scopes: ["org:read", "org:integrations", "org:ci"],
    handler: (req) => {
      const org = orgOr404(req);
      return org instanceof Response
        ? org
        : paginate(req, releaseStore(req.state).repos[org.slug] ?? [], {
            sizeParam: "per_page",
            defaultSize: 25,
          });
    },
  },
];
