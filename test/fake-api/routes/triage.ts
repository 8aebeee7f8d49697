/**
 * Changing issues, notes, teams and events (API.md §15): single and bulk PUT with the
 * status/statusDetails/assignedTo rules, comments, an issue's events (paged), one event by id
 * (issue- or project-scoped), event-id lookup, and the teams `#team` assignees name.
 */
import { detail, json, notFound, paginate } from "../http.ts";
import type { FakeRequest, FakeState, Route, SeedOrg, SeedProject } from "../types.ts";
import {
  type FakeIssue,
  findIssue,
  issueJson,
  issueStore,
  latestEventJson,
  orgIssueOr404,
  parseSearch,
} from "./issues.ts";
import { FAKE_NOW_MS } from "../clock.ts";
import { canSeeOrg, findOrg, findProject } from "./orgs.ts";

/** Teams of every organization (one per org plus a shared `backend`). */
export const TEAMS: Readonly<Record<string, { id: string; slug: string; name: string }[]>> = {
  acme: [
    { id: "200001", slug: "frontend", name: "Frontend" },
    { id: "200002", slug: "backend", name: "Backend" },
  ],
  globex: [{ id: "200011", slug: "backend", name: "Globex Backend" }],
  initech: [],
};

/** Releases that exist in a project: `<slug>@1.4.0`, `<slug>@1.5.0` and `1.2.3`. */
export function releaseExists(p: SeedProject, version: string): boolean {
  return [`${p.slug}@1.4.0`, `${p.slug}@1.5.0`, "1.2.3"].includes(version);
}

/** Notes added through the API, by issue id. */
function notes(state: FakeState): Map<string, unknown[]> {
  let m = state.store.get("notes") as Map<string, unknown[]> | undefined;
  if (!m) {
    m = new Map();
    state.store.set("notes", m);
  }
  return m;
}

type Actor = NonNullable<FakeIssue["assignedTo"]>;

function actorFor(state: FakeState, org: SeedOrg, raw: unknown): Actor | null | "unknown" {
  if (raw === null || raw === "") return null;
  if (typeof raw !== "string") return "unknown";
  const user = state.users.find(
    (u) => raw === u.id || raw === `user:${u.id}` || raw === u.username || raw === u.email,
  );
  if (user) return { type: "user", id: user.id, name: user.name, email: user.email };
  const team = (TEAMS[org.slug] ?? []).find((t) => raw === `team:${t.id}`);
  if (team) return { type: "team", id: team.id, name: team.slug };
  return "unknown";
}

const STATUSES = ["resolved", "unresolved", "ignored", "resolvedInNextRelease"];

/** Applies an update body to issues; the answer Sentry gives, or the 400 it gives. */
function applyUpdate(
  state: FakeState,
  org: SeedOrg,
  issues: FakeIssue[],
  body: Record<string, unknown>,
): Response {
  const allowed = [
    "status",
    "statusDetails",
    "substatus",
    "assignedTo",
    "priority",
    "hasSeen",
    "isBookmarked",
    "isSubscribed",
    "isPublic",
    "inbox",
  ];
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) return json({ [key]: ["Unknown field."] }, 400);
  }
  const out: Record<string, unknown> = {};
  let status = body.status as string | undefined;
  const details = (body.statusDetails ?? {}) as Record<string, unknown>;
  if (status !== undefined && !STATUSES.includes(status)) {
    return json({ status: [`"${status}" is not a valid choice.`] }, 400);
  }
  if (status === "resolvedInNextRelease" || details.inNextRelease === true) {
    status = "resolved";
    details.inNextRelease = true;
  }
  if (typeof details.inRelease === "string" || details.inNextRelease === true) {
    const projects = new Set(issues.map((i) => i.projectId));
    if (projects.size > 1) return detail(400, "Cannot set release data for issues of more than one project.");
    const p = state.projects.find((q) => q.id === issues[0]?.projectId) as SeedProject;
    if (typeof details.inRelease === "string" && !releaseExists(p, details.inRelease)) {
      return json({ statusDetails: { inRelease: [`Release ${details.inRelease} does not exist.`] } }, 400);
    }
  }
  let assignee: Actor | null | "unknown" | undefined;
  if ("assignedTo" in body) {
    assignee = actorFor(state, org, body.assignedTo);
    if (assignee === "unknown") return json({ assignedTo: ["Unknown actor input"] }, 400);
  }
  let substatus: string | null | undefined;
  if (status === "ignored") {
    substatus =
      details.ignoreUntilEscalating === true
        ? "archived_until_escalating"
        : details.ignoreDuration || details.ignoreCount || details.ignoreUserCount
          ? "archived_until_condition_met"
          : "archived_forever";
  } else if (status === "unresolved") substatus = "ongoing";
  else if (status === "resolved") substatus = null;
  for (const issue of issues) {
    if (status) {
      issue.status = status as FakeIssue["status"];
      issue.statusDetails = { ...details };
      issue.substatus = substatus;
    }
    if (assignee !== undefined) issue.assignedTo = assignee as Actor | null;
  }
  if (status) Object.assign(out, { status, statusDetails: details, substatus });
  if (assignee !== undefined) out.assignedTo = assignee;
  return json(out);
}

async function bodyOf(req: FakeRequest): Promise<Record<string, unknown> | Response> {
  try {
    const b = JSON.parse(req.body || "{}") as unknown;
    if (typeof b !== "object" || b === null || Array.isArray(b)) return detail(400, "Invalid body.");
    return b as Record<string, unknown>;
  } catch {
    return detail(400, "Malformed JSON body.");
  }
}

async function updateOne(req: FakeRequest): Promise<Response> {
  const r = orgIssueOr404(req);
  if (r instanceof Response) return r;
  const body = await bodyOf(req);
  if (body instanceof Response) return body;
  return applyUpdate(req.state, r.org, [r.issue], body);
}

/** The bulk PUT (explicit ids or a query); incidents.ts sends merges elsewhere. */
export async function updateMany(req: FakeRequest): Promise<Response> {
  const org = findOrg(req.state, req.params.org ?? "");
  if (!org || !canSeeOrg(req, org)) return notFound();
  const body = await bodyOf(req);
  if (body instanceof Response) return body;
  const ids = req.query.getAll("id");
  let issues: FakeIssue[];
  if (ids.length > 0) {
    if (ids.length > 100) return detail(400, "You can only update up to 100 issues at once.");
    issues = ids.map((id) => findIssue(req.state, id)).filter((x): x is FakeIssue => x?.org === org.slug);
  } else {
    const filters = parseSearch(req.query.get("query") ?? "is:unresolved");
    if (typeof filters === "string") return detail(400, filters);
    issues = issueStore(req.state).issues.filter((x) => x.org === org.slug && filters.every((f) => f(x)));
  }
  if (issues.length === 0) return new Response(null, { status: 204 });
  return applyUpdate(req.state, org, issues, body);
}

async function addNote(req: FakeRequest): Promise<Response> {
  const r = orgIssueOr404(req);
  if (r instanceof Response) return r;
  const body = await bodyOf(req);
  if (body instanceof Response) return body;
  if (typeof body.text !== "string" || body.text.trim() === "")
    return json({ text: ["This field is required."] }, 400);
  const user = req.state.users.find((u) => u.id === req.token?.userId);
  const list = notes(req.state).get(r.issue.id) ?? [];
  const note = {
    id: String(700000 + list.length + 1),
    type: "note",
    data: { text: body.text },
    dateCreated: new Date(FAKE_NOW_MS + list.length * 1000).toISOString(),
    user: user ? { id: user.id, name: user.name, email: user.email } : null,
  };
  list.push(note);
  notes(req.state).set(r.issue.id, list);
  r.issue.numComments = list.length;
  return json(note, 201);
}

/** How many events an issue has in the fake (the seeded count, capped). */
export function eventCount(x: FakeIssue): number {
  return Math.min(x.count, 150);
}

/** The id of the `i`-th newest event of an issue (0: the latest event's id). */
export function eventIdOf(x: FakeIssue, i: number): string {
  const seed = i === 0 ? `event-${x.id}` : `event-${x.id}-${i}`;
  return Bun.hash(seed).toString(16).padStart(16, "0").repeat(2).slice(0, 32);
}

/** The `i`-th newest event of an issue (0 is the latest event). */
export function eventJson(state: FakeState, x: FakeIssue, i: number) {
  const latest = latestEventJson(state, x);
  if (i === 0) return latest;
  const eventId = eventIdOf(x, i);
  const at = Date.parse(latest.dateCreated) - i * 3_600_000;
  const crumbs = Array.from({ length: 30 }, (_, k) => ({
    type: "default",
    category: k % 3 === 0 ? "navigation" : "console",
    level: "info",
    message: `step ${k + 1}`,
    timestamp: new Date(at - (30 - k) * 1000).toISOString(),
  }));
  return {
    ...latest,
    id: eventId,
    eventID: eventId,
    dateCreated: new Date(at).toISOString(),
    dateReceived: new Date(at + 350).toISOString(),
    entries: [
      ...latest.entries.filter((e) => e.type === "exception"),
      { type: "breadcrumbs", data: { values: crumbs } },
      {
        type: "request",
        data: {
          url: "https://example.com/dashboard",
          method: "GET",
          headers: [
            ["Cookie", "session=s3cr3t-session"],
            ["Authorization", "Bearer live-user-token"],
            ["User-Agent", "Mozilla/5.0"],
          ],
          cookies: [["session", "s3cr3t-session"]],
        },
      },
    ],
    contexts: {
      ...latest.contexts,
      browser: { name: "Chrome", version: "131.0" },
      os: { name: "macOS", version: "15.1" },
    },
  };
}

function listEvents(req: FakeRequest): Response {
  const r = orgIssueOr404(req);
  if (r instanceof Response) return r;
  const q = (req.query.get("query") ?? "").toLowerCase();
  const all = Array.from({ length: eventCount(r.issue) }, (_, i) => eventJson(req.state, r.issue, i));
  const full = req.query.get("full") === "true";
  const items = all
    .filter(
      (e) =>
        q === "" || JSON.stringify(e.tags).toLowerCase().includes(q) || e.title.toLowerCase().includes(q),
    )
    .map((e) => (full ? e : { ...e, entries: [] }));
  return paginate(req, items, { sizeParam: "per_page", defaultSize: 100 });
}

function findEvent(
  state: FakeState,
  issues: FakeIssue[],
  eventId: string,
): { issue: FakeIssue; event: unknown } | undefined {
  for (const issue of issues) {
    for (let i = 0; i < eventCount(issue); i++) {
      if (eventIdOf(issue, i) === eventId) return { issue, event: eventJson(state, issue, i) };
    }
  }
  return undefined;
}

/** The issues that have events a lookup by id may hit (the first few of each project: enough for tests). */
function searchable(state: FakeState, filter: (x: FakeIssue) => boolean): FakeIssue[] {
  return issueStore(state).issues.filter(filter).slice(0, 400);
}

function issueEvent(req: FakeRequest): Response {
  const r = orgIssueOr404(req);
  if (r instanceof Response) return r;
  const which = req.params.eventId ?? "";
  if (which === "oldest") return json(eventJson(req.state, r.issue, eventCount(r.issue) - 1));
  if (which === "recommended" || which === "latest") return json(eventJson(req.state, r.issue, 0));
  const found = findEvent(req.state, [r.issue], which);
  return found ? json(found.event) : notFound();
}

function projectEvent(req: FakeRequest): Response {
  const org = findOrg(req.state, req.params.org ?? "");
  if (!org || !canSeeOrg(req, org)) return notFound();
  const p = findProject(req.state, org, req.params.project ?? "");
  if (!p) return notFound();
  const found = findEvent(
    req.state,
    searchable(req.state, (x) => x.projectId === p.id),
    req.params.eventId ?? "",
  );
  return found ? json(found.event) : notFound();
}

function eventIdLookup(req: FakeRequest): Response {
  const org = findOrg(req.state, req.params.org ?? "");
  if (!org || !canSeeOrg(req, org)) return notFound();
  const found = findEvent(
    req.state,
    searchable(req.state, (x) => x.org === org.slug),
    req.params.eventId ?? "",
  );
  if (!found) return notFound();
  const p = req.state.projects.find((q) => q.id === found.issue.projectId) as SeedProject;
  return json({
    organizationSlug: org.slug,
    projectSlug: p.slug,
    groupId: found.issue.id,
    eventId: req.params.eventId,
    event: found.event,
  });
}

/** Routes of this module (after issueRoutes, whose `events/latest/` route answers first). */
export const triageRoutes: Route[] = [
  {
    method: "PUT",
    pattern: "/api/0/organizations/:org/issues/:id/",
    hosts: "region",
    scopes: ["event:write"],
    handler: updateOne,
  },
  {
    method: "PUT",
    pattern: "/api/0/organizations/:org/issues/",
    hosts: "region",
    scopes: ["event:write"],
    handler: updateMany,
  },
  {
    method: "POST",
    pattern: "/api/0/organizations/:org/issues/:id/comments/",
    hosts: "region",
    scopes: ["event:write"],
    handler: addNote,
  },
  {
    method: "GET",
    pattern: "/api/0/organizations/:org/issues/:id/comments/",
    hosts: "region",
    scopes: ["event:read"],
    handler: (req) => {
      const r = orgIssueOr404(req);
      return r instanceof Response ? r : json(notes(req.state).get(r.issue.id) ?? []);
    },
  },
  {
    method: "GET",
    pattern: "/api/0/organizations/:org/issues/:id/events/",
    hosts: "region",
    scopes: ["event:read"],
    handler: listEvents,
  },
  {
    method: "GET",
    pattern: "/api/0/organizations/:org/issues/:id/events/:eventId/",
    hosts: "region",
    scopes: ["event:read"],
    handler: issueEvent,
  },
  {
    method: "GET",
    pattern: "/api/0/projects/:org/:project/events/:eventId/",
    hosts: "region",
    scopes: ["event:read"],
    handler: projectEvent,
  },
  {
    method: "GET",
    pattern: "/api/0/organizations/:org/eventids/:eventId/",
    hosts: "region",
    scopes: ["event:read"],
    handler: eventIdLookup,
  },
  {
    method: "GET",
    pattern: "/api/0/organizations/:org/teams/",
    hosts: "region",
    scopes: ["org:read", "team:read"],
    handler: (req) => {
      const org = findOrg(req.state, req.params.org ?? "");
      if (!org || !canSeeOrg(req, org)) return notFound();
      return paginate(req, TEAMS[org.slug] ?? [], { sizeParam: "per_page", defaultSize: 100 });
    },
  },
];

/** The wire form of an issue after changes (tests compare against it). */
export function issueAfter(state: FakeState, id: string) {
  const x = findIssue(state, id);
  return x ? issueJson(state, x) : undefined;
}
