/**
 * Issues, short ids and latest events (API.md section 5). Seeded deterministically per project;
 * tests can add or replace issues through `issueStore(state)`.
 */
import { detail, json, notFound, paginate } from "../http.ts";
import type { FakeRequest, FakeState, Route, SeedOrg, SeedProject } from "../types.ts";
import { FAKE_NOW_MS } from "../clock.ts";
import { canSeeOrg, findOrg } from "./orgs.ts";
import { activityOf, firstReleaseOf } from "./incidents.ts";
import { absoluteWindow } from "./window.ts";

/** The fake server's "now": seeds are placed relative to it (matches the test context clock). */
export const ISSUES_NOW_MS = FAKE_NOW_MS;

/** Seeded issue counts per `<org>/<project>` (acme/web is big enough for `-n 1000`). */
export const SEEDED_ISSUE_COUNTS: Readonly<Record<string, number>> = {
  "acme/web": 1500,
  "acme/api": 120,
  "acme/mobile-app": 40,
  "acme/worker": 15,
  "globex/web": 8,
  "globex/billing": 5,
  "initech/tps-reports": 0,
};

/** One stored issue (times in ms; `count` a number here, a string on the wire). */
export interface FakeIssue {
  id: string;
  shortId: string;
  org: string;
  projectId: string;
  title: string;
  culprit: string;
  level: string;
  status: "unresolved" | "resolved" | "ignored";
  isUnhandled: boolean;
  count: number;
  userCount: number;
  firstSeen: number;
  lastSeen: number;
  metadata: { type: string; value: string; filename: string; function: string };
  environment: string;
  seerFixabilityScore: number | null;
  /** Set by updates (API.md §15); absent on seeded issues. */
  substatus?: string | null;
  statusDetails?: Record<string, unknown>;
  assignedTo?: { type: "user" | "team"; id: string; name: string; email?: string } | null;
  numComments?: number;
}

/** The module's state. */
export interface IssueStore {
  issues: FakeIssue[];
  nextId: number;
}

const STORE_KEY = "issues";

const TITLES: readonly [string, string, string][] = [
  ["TypeError", "Cannot read properties of undefined (reading 'map')", "fetchData"],
  ["ReferenceError", "user is not defined", "renderProfile"],
  ["Error", "Request failed with status code 500", "callApi"],
  ["ZeroDivisionError", "division by zero", "computeRatio"],
  ["KeyError", "'user_id'", "loadSession"],
  ["TimeoutError", "Navigation timeout of 30000 ms exceeded", "openPage"],
  ["ValueError", "invalid literal for int() with base 10: 'abc'", "parseAmount"],
  ["UnhandledRejection", "💥 payment provider rejected the charge", "checkout"],
  ["DatabaseError", "数据库连接失败: connection refused", "connectDb"],
  ["RangeError", "Maximum call stack size exceeded", "walkTree"],
];
const LEVELS = ["error", "error", "error", "warning", "fatal", "error", "info", "error", "warning", "debug"];

/** Sentry-style base32 (Crockford alphabet) used in short-id suffixes. */
export function shortSuffix(n: number): string {
  const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  let out = "";
  let x = n;
  do {
    out = alphabet[x % 32] + out;
    x = Math.floor(x / 32);
  } while (x > 0);
  return out;
}

function hash(n: number): number {
  let x = (n * 2654435761) >>> 0;
  x ^= x >>> 15;
  x = Math.imul(x, 2246822519) >>> 0;
  x ^= x >>> 13;
  return x >>> 0;
}

function seedIssues(state: FakeState): IssueStore {
  const store: IssueStore = { issues: [], nextId: 4001 };
  for (const p of state.projects) {
    const n = SEEDED_ISSUE_COUNTS[`${p.org}/${p.slug}`] ?? 0;
    for (let i = 0; i < n; i++) store.issues.push(makeIssue(store, p, i));
  }
  return store;
}

function makeIssue(store: IssueStore, p: SeedProject, i: number): FakeIssue {
  const id = store.nextId++;
  const h = hash(id);
  const [type, value, fn] = TITLES[(i + Number(p.id)) % TITLES.length] as [string, string, string];
  const file = `app/${p.slug}/module${i % 7}.js`;
  // Every 20th issue is older than the default 90-day window; the rest spread over ~24 days.
  const ageMs = i % 20 === 19 ? (95 + (i % 30)) * 86_400_000 : i * 23 * 60_000 + (h % 20) * 60_000;
  const lastSeen = ISSUES_NOW_MS - ageMs - (h % 1000);
  const count = 1 + (h % 5000);
  return {
    id: String(id),
    shortId: `${p.slug.toUpperCase()}-${shortSuffix(i + 1)}`,
    org: p.org,
    projectId: p.id,
    title: `${type}: ${value}`,
    culprit: `${fn}(${file})`,
    level: LEVELS[h % LEVELS.length] as string,
    status: i % 17 === 16 ? "resolved" : i % 23 === 22 ? "ignored" : "unresolved",
    isUnhandled: h % 3 !== 0,
    count,
    userCount: (h >>> 8) % (count + 1),
    firstSeen: lastSeen - ((h >>> 4) % 30) * 86_400_000 - 3_600_000,
    lastSeen,
    metadata: { type, value, filename: file, function: fn },
    environment: h % 4 === 0 ? "staging" : "production",
    seerFixabilityScore: h % 5 === 0 ? null : Math.round(((h >>> 3) % 100) / 10) / 10,
  };
}

/** The issue store of a server (seeded on first use). */
export function issueStore(state: FakeState): IssueStore {
  let s = state.store.get(STORE_KEY) as IssueStore | undefined;
  if (!s) {
    s = seedIssues(state);
    state.store.set(STORE_KEY, s);
  }
  return s;
}

/** Adds an issue to a project (tests: golden output, odd titles); returns it. */
export function addIssue(
  state: FakeState,
  org: string,
  projectSlug: string,
  fields: Partial<Omit<FakeIssue, "id" | "org" | "projectId">> = {},
): FakeIssue {
  const s = issueStore(state);
  const p = state.projects.find((x) => x.org === org && x.slug === projectSlug);
  if (!p) throw new Error(`no project ${org}/${projectSlug}`);
  const n = s.issues.filter((x) => x.projectId === p.id).length;
  const issue = { ...makeIssue(s, p, n), ...fields };
  s.issues.push(issue);
  return issue;
}

/**
 * "My plate" data (`tracker status`): issues assigned to the seeded user or to one of their teams,
 * one assigned to a team they are not in, and regressed issues (one in a project they are not a
 * member of). Returns the short IDs per org and section, for assertions.
 */
export function seedMyPlate(state: FakeState) {
  const s = issueStore(state);
  const at = (org: string, shortId: string) => {
    const x = s.issues.find((i) => i.org === org && i.shortId === shortId);
    if (!x) throw new Error(`no seeded issue ${org}/${shortId}`);
    return x;
  };
  const jane = { type: "user" as const, id: "12345", name: "Jane Doe", email: "jane@example.com" };
  at("acme", "WEB-1").assignedTo = jane;
  at("acme", "API-2").assignedTo = jane;
  at("acme", "WEB-3").assignedTo = { type: "team", id: "200002", name: "backend" };
  at("acme", "WEB-4").assignedTo = { type: "team", id: "200001", name: "frontend" };
  at("globex", "BILLING-1").assignedTo = jane;
  at("acme", "WEB-5").substatus = "regressed";
  at("acme", "MOBILE-APP-2").substatus = "regressed";
  at("acme", "WORKER-1").substatus = "regressed";
  return {
    acme: { assigned: ["WEB-1", "API-2", "WEB-3"], regressed: ["WEB-5", "MOBILE-APP-2"] },
    globex: { assigned: ["BILLING-1"], regressed: [] as string[] },
  };
}

/** Removes every issue of a project (tests: empty projects). */
export function clearIssues(state: FakeState, org: string, projectSlug: string): void {
  const s = issueStore(state);
  const p = state.projects.find((x) => x.org === org && x.slug === projectSlug);
  s.issues = s.issues.filter((x) => x.projectId !== p?.id);
}

/** Finds an issue by numeric id. */
export function findIssue(state: FakeState, id: string): FakeIssue | undefined {
  return issueStore(state).issues.find((x) => x.id === id);
}

function iso(ms: number, micros: string): string {
  return new Date(ms).toISOString().replace("Z", `${micros}Z`);
}

/** The wire form of an issue (API.md 5.1): count as a string, microsecond timestamps. */
export function issueJson(state: FakeState, x: FakeIssue) {
  const p = state.projects.find((q) => q.id === x.projectId) as SeedProject;
  const micros = String(Number(x.id) % 1000).padStart(3, "0");
  return {
    id: x.id,
    shortId: x.shortId,
    title: x.title,
    culprit: x.culprit,
    permalink: `https://${x.org}.sentry.io/issues/${x.id}/`,
    logger: null,
    level: x.level,
    status: x.status,
    substatus: x.substatus !== undefined ? x.substatus : x.status === "unresolved" ? "ongoing" : null,
    statusDetails: x.statusDetails ?? {},
    isPublic: false,
    platform: p.platform.split("-")[0],
    project: { id: p.id, name: p.name, slug: p.slug, platform: p.platform },
    type: "error",
    issueType: "error",
    issueCategory: "error",
    metadata: x.metadata,
    numComments: x.numComments ?? 0,
    assignedTo: x.assignedTo ?? null,
    isBookmarked: false,
    isSubscribed: true,
    hasSeen: false,
    annotations: [],
    priority: x.level === "fatal" ? "high" : "medium",
    isUnhandled: x.isUnhandled,
    count: String(x.count),
    userCount: x.userCount,
    firstSeen: iso(x.firstSeen, micros),
    lastSeen: iso(x.lastSeen, micros),
    stats: { "24h": [] },
    lifetime: { count: String(x.count), userCount: x.userCount, firstSeen: null, lastSeen: null },
    filtered: null,
    seerFixabilityScore: x.seerFixabilityScore,
  };
}

/** The X-Max-Hits issue lists send (the most the fake's search "counts"). */
export const ISSUE_MAX_HITS = 10_000;

type Filter = (x: FakeIssue) => boolean;
const PERIOD_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const IS_VALUES = ["unresolved", "resolved", "ignored", "archived"];
const SUBSTATUS_VALUES = ["regressed", "new", "ongoing", "escalating"];

/** The teams of the seeded user (Jane): the `backend` teams of acme and globex (`assigned:my_teams`). */
export const MY_TEAM_IDS: ReadonlySet<string> = new Set(["200002", "200011"]);

/** Who searches: `assigned:me` and `assigned:my_teams` are resolved against this (API.md §19.4). */
export interface Searcher {
  userId?: string;
  teamIds?: ReadonlySet<string>;
}

/** The substatus an issue shows (issueJson): its own, else `ongoing` while unresolved. */
function substatusOf(x: FakeIssue): string | null {
  return x.substatus !== undefined ? x.substatus : x.status === "unresolved" ? "ongoing" : null;
}

function assigneeFilter(value: string, who: Searcher): Filter | string {
  const one = (v: string): Filter | string => {
    if (v === "me") return (x) => x.assignedTo?.type === "user" && x.assignedTo.id === who.userId;
    if (v === "my_teams")
      return (x) => x.assignedTo?.type === "team" && (who.teamIds ?? MY_TEAM_IDS).has(x.assignedTo.id);
    if (v === "none") return (x) => !x.assignedTo;
    if (v.startsWith("#")) return (x) => x.assignedTo?.type === "team" && x.assignedTo.name === v.slice(1);
    if (v.includes("@")) return (x) => x.assignedTo?.email === v;
    return `Error parsing search query: Invalid value '${v}' for 'assigned:'`;
  };
  const values = value.startsWith("[")
    ? value
        .slice(1, -1)
        .split(",")
        .map((v) => v.trim())
    : [value];
  const fs: Filter[] = [];
  for (const v of values) {
    const f = one(v);
    if (typeof f === "string") return f;
    fs.push(f);
  }
  return (x) => fs.some((f) => f(x));
}

function firstSeenFilter(value: string): Filter | string {
  const m = /^(>=|<=|>|<)?(.+)$/.exec(value) as RegExpExecArray;
  const op = m[1] ?? "=";
  const text = m[2] as string;
  const rel = /^-(\d+)([smhdw])$/.exec(text);
  const at = rel
    ? ISSUES_NOW_MS - Number(rel[1]) * (PERIOD_MS[rel[2] as string] as number)
    : Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);
  if (!Number.isFinite(at)) return `Error parsing search query: Invalid date: ${text}`;
  // A relative time means "within": -24h is firstSeen >= now - 24h.
  const cmp = rel && op === "=" ? ">=" : op;
  const test: Record<string, (t: number) => boolean> = {
    ">=": (t) => t >= at,
    ">": (t) => t > at,
    "<=": (t) => t <= at,
    "<": (t) => t < at,
    "=": (t) => t === at,
  };
  const pass = test[cmp] as (t: number) => boolean;
  return (x) => pass(x.firstSeen);
}

/** Parses the subset of Sentry search syntax the fake understands; errors read like Sentry's. */
export function parseSearch(query: string, who: Searcher = {}): Filter[] | string {
  if ((query.match(/"/g) ?? []).length % 2 === 1) {
    return 'Error parsing search query: Expected """ but end of input found.';
  }
  const filters: Filter[] = [];
  const tokens = query.match(/!?[\w.]+:"[^"]*"|!?[\w.]+:\[[^\]]*\]|"[^"]*"|\S+/g) ?? [];
  for (const token of tokens) {
    const m = /^(!?)([\w.]+):(.*)$/.exec(token);
    if (!m) {
      const text = token.replace(/"/g, "").toLowerCase();
      filters.push((x) => x.title.toLowerCase().includes(text) || x.culprit.toLowerCase().includes(text));
      continue;
    }
    const [, neg, key, rawValue] = m as unknown as [string, string, string, string];
    const value = rawValue.replace(/^"|"$/g, "");
    if (value === "") return `Error parsing search query: Empty string after '${key}:'`;
    let f: Filter;
    if (key === "is") {
      if (SUBSTATUS_VALUES.includes(value)) {
        f = (x) => substatusOf(x) === value;
      } else {
        if (!IS_VALUES.includes(value)) {
          return `Error parsing search query: Invalid value for "is" search, valid values are ${[...IS_VALUES, ...SUBSTATUS_VALUES].join(", ")}`;
        }
        const want = value === "archived" ? "ignored" : value;
        f = (x) => x.status === want;
      }
    } else if (key === "assigned") {
      const a = assigneeFilter(value, who);
      if (typeof a === "string") return a;
      f = a;
    } else if (key === "firstSeen" || key === "age") {
      const a = firstSeenFilter(value);
      if (typeof a === "string") return a;
      f = a;
    } else if (key === "level") f = (x) => x.level === value;
    else if (key === "environment") f = (x) => x.environment === value;
    else if (key === "issue") f = (x) => x.shortId === value.toUpperCase();
    else f = () => false; // unknown keys are tag filters; seeded issues carry no other tags
    filters.push(neg ? (x) => !f(x) : f);
  }
  return filters;
}

const SORTS: Record<string, (a: FakeIssue, b: FakeIssue) => number> = {
  date: (a, b) => b.lastSeen - a.lastSeen,
  new: (a, b) => b.firstSeen - a.firstSeen,
  freq: (a, b) => b.count - a.count,
  user: (a, b) => b.userCount - a.userCount,
};

/** `GET organizations/{org}/issues/` (feedback.ts answers the feedback category first). */
export function listIssues(req: FakeRequest): Response {
  const org = findOrg(req.state, req.params.org ?? "");
  if (!org || !canSeeOrg(req, org)) return notFound();
  const projectParams = req.query.getAll("project");
  if (projectParams.some((p) => !/^-?\d+$/.test(p))) {
    return detail(400, "Invalid project parameter. Values must be numbers.");
  }
  const orgProjects = req.state.projects.filter((p) => p.org === org.slug);
  let projects: SeedProject[];
  if (projectParams.includes("-1")) projects = orgProjects;
  else if (projectParams.length === 0) projects = orgProjects.filter((p) => p.isMember);
  else {
    projects = [];
    for (const id of projectParams) {
      const p = orgProjects.find((q) => q.id === id);
      if (!p) return detail(403, "You do not have permission to perform this action.");
      projects.push(p);
    }
  }
  const rawQuery = req.query.get("query");
  const filters = parseSearch(rawQuery === null ? "is:unresolved" : rawQuery, { userId: req.token?.userId });
  if (typeof filters === "string") return detail(400, filters);
  const period = req.query.get("statsPeriod");
  let since = Number.NEGATIVE_INFINITY;
  if (period !== null && period !== "") {
    const m = /^(\d+)([smhdw])$/.exec(period);
    if (!m) return detail(400, "Invalid statsPeriod. Expected a value like 24h, 14d or 2w.");
    since = ISSUES_NOW_MS - Number(m[1]) * (PERIOD_MS[m[2] as string] as number);
  }
  const range = absoluteWindow(req);
  if (range instanceof Response) return range;
  const inRange = (x: FakeIssue) => !range || (x.lastSeen >= range.startMs && x.firstSeen <= range.endMs);
  // `environment` is a repeated parameter (API.md §22.2).
  const envs = req.query.getAll("environment");
  const inEnv = (x: FakeIssue) => envs.length === 0 || envs.includes(x.environment);
  const sortName = req.query.get("sort") ?? "date";
  const sort = SORTS[sortName];
  if (!sort) return detail(400, `Invalid sort: ${sortName}`);
  const ids = new Set(projects.map((p) => p.id));
  const items = issueStore(req.state)
    .issues.filter(
      (x) =>
        ids.has(x.projectId) && x.lastSeen >= since && inRange(x) && inEnv(x) && filters.every((f) => f(x)),
    )
    .sort((a, b) => sort(a, b) || Number(b.id) - Number(a.id))
    .map((x) => issueJson(req.state, x));
  const res = paginate(req, items, { sizeParam: "limit", defaultSize: 100 });
  // Issue lists count their matches (paginate sends X-Hits) up to a maximum (API.md §19.2).
  if (res.ok) res.headers.set("X-Max-Hits", String(ISSUE_MAX_HITS));
  return res;
}

/** The issue of `:id` in `:org`, or the Sentry-style 404. */
export function orgIssueOr404(req: FakeRequest): { org: SeedOrg; issue: FakeIssue } | Response {
  const org = findOrg(req.state, req.params.org ?? "");
  if (!org || !canSeeOrg(req, org)) return notFound();
  const issue = findIssue(req.state, req.params.id ?? "");
  if (!issue || issue.org !== org.slug) return notFound();
  return { org, issue };
}

function issueDetail(state: FakeState, x: FakeIssue) {
  return {
    ...issueJson(state, x),
    activity: activityOf(state, x.id),
    seenBy: [],
    participants: [],
    pluginActions: [],
    userReportCount: 0,
    firstRelease: firstReleaseOf(state, x.id),
    lastRelease: null,
    tags: [
      { key: "environment", name: "Environment", totalValues: x.count },
      { key: "release", name: "Release", totalValues: x.count },
    ],
  };
}

/** The latest event of an issue (API.md 5.5): camelCase frames, oldest first, `dateCreated`. */
export function latestEventJson(state: FakeState, x: FakeIssue) {
  const eventId = Bun.hash(`event-${x.id}`).toString(16).padStart(16, "0").repeat(2).slice(0, 32);
  const dateCreated = new Date(x.lastSeen).toISOString();
  const frame = (filename: string, fn: string, lineNo: number, inApp: boolean, code: string) => ({
    filename,
    absPath: `https://example.com/${filename}`,
    module: null,
    function: fn,
    lineNo,
    colNo: 7,
    inApp,
    context: [[lineNo, code]],
    vars: null,
  });
  return {
    id: eventId,
    eventID: eventId,
    groupID: x.id,
    projectID: x.projectId,
    title: x.title,
    message: "",
    platform: issueJson(state, x).platform,
    type: "error",
    culprit: x.culprit,
    location: x.metadata.filename,
    dateCreated,
    dateReceived: new Date(x.lastSeen + 350).toISOString(),
    metadata: x.metadata,
    tags: [
      { key: "environment", value: x.environment },
      { key: "level", value: x.level },
      { key: "release", value: "web@1.4.0" },
    ],
    contexts: { trace: { trace_id: "aaaa1111bbbb2222cccc3333dddd4444", span_id: "b1c2d3e4f5a6b7c8" } },
    user: { id: "u-12345", email: "user@example.com", username: null, ip_address: "192.0.2.1" },
    sdk: { name: "sentry.javascript.react", version: "8.40.0" },
    entries: [
      {
        type: "exception",
        data: {
          values: [
            {
              type: x.metadata.type,
              value: x.metadata.value,
              module: null,
              mechanism: { type: "onerror", handled: !x.isUnhandled },
              stacktrace: {
                frames: [
                  frame("node_modules/react-dom/index.js", "invokeCallback", 3990, false, "cb();"),
                  frame("app/main.js", "run", 10, true, "  run();"),
                  frame("app/router.js", "dispatch", 27, true, "  return handler(req);"),
                  frame(x.metadata.filename, x.metadata.function, 42, true, "return items.map(f);"),
                ],
                framesOmitted: null,
                hasSystemFrames: true,
              },
            },
          ],
          hasSystemFrames: true,
        },
      },
      { type: "breadcrumbs", data: { values: [] } },
      { type: "request", data: { url: "https://example.com/dashboard", method: "GET" } },
    ],
    errors: [],
    fingerprints: ["{{ default }}"],
  };
}

/** Routes of this module. */
export const issueRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/api/0/organizations/:org/issues/",
    hosts: "region",
    scopes: ["event:read"],
    handler: listIssues,
  },
  {
    method: "GET",
    pattern: "/api/0/organizations/:org/issues/:id/",
    hosts: "region",
    scopes: ["event:read"],
    handler: (req) => {
      const r = orgIssueOr404(req);
      return r instanceof Response ? r : json(issueDetail(req.state, r.issue));
    },
  },
  {
    method: "GET",
    pattern: "/api/0/issues/:id/",
    hosts: "control",
    scopes: ["event:read"],
    handler: (req) => {
      const issue = findIssue(req.state, req.params.id ?? "");
      const org = issue ? findOrg(req.state, issue.org) : undefined;
      if (!issue || !org || !canSeeOrg(req, org)) return notFound();
      return json(issueDetail(req.state, issue));
    },
  },
  {
    method: "GET",
    pattern: "/api/0/organizations/:org/shortids/:shortId/",
    hosts: "region",
    scopes: ["event:read"],
    handler: (req) => {
      const org = findOrg(req.state, req.params.org ?? "");
      if (!org || !canSeeOrg(req, org)) return notFound();
      const want = (req.params.shortId ?? "").toUpperCase();
      const issue = issueStore(req.state).issues.find((x) => x.org === org.slug && x.shortId === want);
      if (!issue) return notFound();
      const p = req.state.projects.find((q) => q.id === issue.projectId) as SeedProject;
      return json({
        organizationSlug: org.slug,
        projectSlug: p.slug,
        groupId: issue.id,
        shortId: issue.shortId,
        group: issueJson(req.state, issue),
      });
    },
  },
  {
    method: "GET",
    pattern: "/api/0/organizations/:org/issues/:id/events/latest/",
    hosts: "region",
    scopes: ["event:read"],
    handler: (req) => {
      const r = orgIssueOr404(req);
      return r instanceof Response ? r : json(latestEventJson(req.state, r.issue));
    },
  },
];
