/**
 * Incident data of issues (API.md §22.4–22.7): activity (with the notes triage.ts stores), external
 * issue links through an issue-tracker integration, merges, suspect commits of a latest event and
 * the first release an issue appeared in. Nothing is seeded until `seedIncident` names an issue,
 * so other tests see empty activity, no links, no suspects and no first release.
 */
import { detail, json, notFound, paginate } from "../http.ts";
import type { FakeRequest, FakeState, Route } from "../types.ts";
import { FAKE_NOW_MS } from "../clock.ts";
import { type FakeIssue, findIssue, issueStore, orgIssueOr404 } from "./issues.ts";
import { seedFeedback } from "./feedback.ts";
import { findOrg, canSeeOrg } from "./orgs.ts";
import { seedReplays } from "./replays.ts";
import { eventIdOf, updateMany } from "./triage.ts";

/** A linked ticket. */
export interface FakeLink {
  id: string;
  key: string;
  url: string;
  title: string;
  displayName: string;
  integrationId: string;
}

/** The module's state. */
export interface IncidentStore {
  activity: Map<string, Record<string, unknown>[]>;
  links: Map<string, FakeLink[]>;
  committers: Map<string, unknown[]>;
  firstRelease: Map<string, string>;
  nextLinkId: number;
}

/** Issue-tracker integrations per organization (acme has GitHub; the others none). */
export const INTEGRATIONS: Readonly<
  Record<string, { id: string; name: string; key: string; provider: string }[]>
> = { acme: [{ id: "9001", name: "acme", key: "github", provider: "GitHub" }] };

/** The module's part of the server state. */
export function incidentStore(state: FakeState): IncidentStore {
  let s = state.store.get("incidents") as IncidentStore | undefined;
  if (!s) {
    s = {
      activity: new Map(),
      links: new Map(),
      committers: new Map(),
      firstRelease: new Map(),
      nextLinkId: 55001,
    };
    state.store.set("incidents", s);
  }
  return s;
}

const iso = (ms: number) => new Date(ms).toISOString();
const JANE = { id: "12345", name: "Jane Doe", username: "jane", email: "jane@example.com" };
const BOB = { id: "12346", name: "Bob Stone", username: "bob", email: "bob@example.com" };

/** The activity of an issue as the detail and `activities/` give it: newest first, notes included. */
export function activityOf(state: FakeState, issueId: string): Record<string, unknown>[] {
  const notes = ((state.store.get("notes") as Map<string, Record<string, unknown>[]> | undefined)?.get(
    issueId,
  ) ?? []) as Record<string, unknown>[];
  const own = incidentStore(state).activity.get(issueId) ?? [];
  return [...own, ...notes].sort((a, b) => String(b.dateCreated).localeCompare(String(a.dateCreated)));
}

/** The `firstRelease` of an issue detail (a release reference), or null. */
export function firstReleaseOf(state: FakeState, issueId: string) {
  const version = incidentStore(state).firstRelease.get(issueId);
  return version ? { version, shortVersion: version.split("@").pop() } : null;
}

/**
 * Gives an issue an incident: first seen 47 minutes after web@1.5.0 reached production, a
 * regression, notes, status changes, an assignment, a linked GitHub ticket and two suspect commits.
 * Returns the issue.
 */
export function seedIncident(state: FakeState, org: string, shortId: string): FakeIssue {
  const issue = issueStore(state).issues.find((x) => x.org === org && x.shortId === shortId);
  if (!issue) throw new Error(`no issue ${org}/${shortId}`);
  const deployMs = FAKE_NOW_MS - 2 * 86_400_000;
  issue.firstSeen = deployMs + 47 * 60_000;
  issue.lastSeen = FAKE_NOW_MS - 30 * 60_000;
  const s = incidentStore(state);
  const at = (minutes: number) => iso(deployMs + minutes * 60_000);
  s.activity.set(issue.id, [
    {
      id: "8006",
      type: "note",
      user: JANE,
      data: { text: "Rolled back the checkout flag; watching." },
      dateCreated: at(2000),
    },
    { id: "8005", type: "set_regression", user: null, data: { version: "web@1.5.0" }, dateCreated: at(1500) },
    { id: "8004", type: "set_resolved", user: BOB, data: {}, dateCreated: at(600) },
    {
      id: "8003",
      type: "create_issue",
      user: BOB,
      data: {
        title: "Checkout crashes",
        provider: "GitHub",
        location: "https://github.com/acme/web/issues/321",
        label: "acme/web#321",
      },
      dateCreated: at(130),
    },
    {
      id: "8002",
      type: "assigned",
      user: JANE,
      data: { assignee: BOB.id, assigneeType: "user", assigneeName: BOB.name, assigneeEmail: BOB.email },
      dateCreated: at(120),
    },
    { id: "8001", type: "first_seen", user: null, data: {}, dateCreated: at(47) },
  ]);
  s.links.set(issue.id, [
    {
      id: "55000",
      key: "acme/web#321",
      url: "https://github.com/acme/web/issues/321",
      title: "Checkout crashes",
      displayName: "acme/web#321",
      integrationId: "9001",
    },
  ]);
  s.firstRelease.set(issue.id, "web@1.5.0");
  s.committers.set(eventIdOf(issue, 0), [
    {
      author: { name: "Jane Doe", email: "jane@example.com" },
      commits: [
        {
          id: "c3d4e5f60718293a4b5c6d7e8f90123456789012",
          message: "Lazy-load the cart items\n\nMoves the fetch.",
          dateCreated: iso(deployMs - 86_400_000),
          repository: { name: "acme/web" },
          pullRequest: { id: "88", title: "Lazy cart", externalUrl: "https://github.com/acme/web/pull/88" },
          suspectCommitType: "via SCM integration",
          score: 2,
        },
      ],
    },
    {
      author: { name: "Bob Stone", email: "bob@example.com" },
      commits: [
        {
          id: "d4e5f60718293a4b5c6d7e8f9012345678901234",
          message: "Rename items to lines",
          dateCreated: iso(deployMs - 90_000_000),
          repository: { name: "acme/web" },
          pullRequest: null,
          suspectCommitType: "via commit in release",
          score: 1,
        },
      ],
    },
  ]);
  return issue;
}

function integrationsOf(req: FakeRequest): Response {
  const r = orgIssueOr404(req);
  if (r instanceof Response) return r;
  const links = incidentStore(req.state).links.get(r.issue.id) ?? [];
  const rows = (INTEGRATIONS[r.org.slug] ?? []).map((i) => ({
    id: i.id,
    name: i.name,
    icon: null,
    domainName: `github.com/${i.name}`,
    accountType: "Organization",
    scopes: null,
    outOfDate: false,
    missingFeatures: null,
    status: "active",
    provider: {
      key: i.key,
      slug: i.key,
      name: i.provider,
      canAdd: true,
      canDisable: false,
      features: ["issue-basic"],
      aspects: {},
    },
    externalIssues: links
      .filter((l) => l.integrationId === i.id)
      .map(({ id, key, url, title, displayName }) => ({
        id,
        key,
        url,
        title,
        description: null,
        displayName,
      })),
  }));
  return paginate(req, rows, { sizeParam: "per_page", defaultSize: 100 });
}

function integrationOr404(req: FakeRequest) {
  const r = orgIssueOr404(req);
  if (r instanceof Response) return r;
  const integration = (INTEGRATIONS[r.org.slug] ?? []).find((i) => i.id === req.params.integration);
  return integration ? { ...r, integration } : notFound();
}

function link(req: FakeRequest): Response {
  const r = integrationOr404(req);
  if (r instanceof Response) return r;
  const body = JSON.parse(req.body || "{}") as { externalIssue?: unknown };
  if (typeof body.externalIssue !== "string" || body.externalIssue === "")
    return json({ externalIssue: ["Issue ID is required"] }, 400);
  const m = /^https:\/\/github\.com\/([^/]+\/[^/]+)\/issues\/(\d+)$/.exec(body.externalIssue);
  if (!m) return json({ non_field_errors: ["Repository not found for this issue URL."] }, 400);
  const s = incidentStore(req.state);
  const list = s.links.get(r.issue.id) ?? [];
  const key = `${m[1]}#${m[2]}`;
  if (list.some((l) => l.key === key))
    return json({ non_field_errors: ["That issue is already linked"] }, 400);
  const created = {
    id: String(s.nextLinkId++),
    key,
    url: body.externalIssue,
    title: `Issue ${m[2]}`,
    displayName: key,
    integrationId: r.integration.id,
  };
  list.push(created);
  s.links.set(r.issue.id, list);
  return json(
    {
      id: Number(created.id),
      key,
      url: created.url,
      integrationId: Number(r.integration.id),
      displayName: key,
    },
    201,
  );
}

function unlink(req: FakeRequest): Response {
  const r = integrationOr404(req);
  if (r instanceof Response) return r;
  const id = req.query.get("externalIssue");
  if (!id) return detail(400, "External ID required");
  const s = incidentStore(req.state);
  const list = s.links.get(r.issue.id) ?? [];
  if (!list.some((l) => l.id === id)) return notFound();
  s.links.set(
    r.issue.id,
    list.filter((l) => l.id !== id),
  );
  return new Response(null, { status: 204 });
}

/** `PUT organizations/{org}/issues/?id=…` with `merge`: Sentry's handle_merge; anything else is triage's. */
async function bulkPut(req: FakeRequest): Promise<Response> {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(req.body || "{}") as Record<string, unknown>;
  } catch {
    return updateMany(req);
  }
  if (!("merge" in body)) return updateMany(req);
  const org = findOrg(req.state, req.params.org ?? "");
  if (!org || !canSeeOrg(req, org)) return notFound();
  const issues = req.query
    .getAll("id")
    .map((id) => findIssue(req.state, id))
    .filter((x): x is FakeIssue => x?.org === org.slug);
  if (issues.length === 0) return new Response(null, { status: 204 });
  if (new Set(issues.map((i) => i.projectId)).size > 1)
    return detail(400, "Merging across multiple projects is not supported");
  const [parent, ...children] = [...issues].sort((a, b) => b.count - a.count || Number(b.id) - Number(a.id));
  if (!parent) return new Response(null, { status: 204 });
  const store = issueStore(req.state);
  store.issues = store.issues.filter((x) => !children.includes(x));
  for (const c of children) parent.count += c.count;
  const user = req.state.users.find((u) => u.id === req.token?.userId);
  const s = incidentStore(req.state);
  s.activity.set(parent.id, [
    {
      id: String(8100 + children.length),
      type: "merge",
      user: user ?? null,
      data: { issues: children.map((c) => ({ id: c.id })) },
      dateCreated: iso(FAKE_NOW_MS),
    },
    ...(s.activity.get(parent.id) ?? []),
  ]);
  return json({ merge: { parent: parent.id, children: children.map((c) => c.id) } });
}

function committers(req: FakeRequest): Response {
  const org = findOrg(req.state, req.params.org ?? "");
  if (!org || !canSeeOrg(req, org)) return notFound();
  const found = incidentStore(req.state).committers.get(req.params.eventId ?? "");
  return found ? json({ committers: found }) : detail(404, "No Commits found for Release");
}

const ISSUE = "/api/0/organizations/:org/issues/:id/";
const region = (method: string, pattern: string, scopes: string[], handler: Route["handler"]): Route => ({
  method,
  pattern,
  hosts: "region",
  scopes,
  handler,
});

/** Routes of this module (registered before triage's, whose bulk PUT it extends with merges). */
export const incidentRoutes: Route[] = [
  region("GET", `${ISSUE}activities/`, ["event:read"], (req) => {
    const r = orgIssueOr404(req);
    return r instanceof Response ? r : json({ activity: activityOf(req.state, r.issue.id).slice(0, 100) });
  }),
  region("GET", `${ISSUE}integrations/`, ["event:read"], integrationsOf),
  region("PUT", `${ISSUE}integrations/:integration/`, ["event:write"], link),
  region("DELETE", `${ISSUE}integrations/:integration/`, ["event:write"], unlink),
  region("PUT", "/api/0/organizations/:org/issues/", ["event:write"], bulkPut),
  region("GET", "/api/0/projects/:org/:project/events/:eventId/committers/", ["event:read"], committers),
];

/**
 * The sandbox's incident demo: an incident on acme/WEB-4Y (activity, a link, suspects, a first
 * release with deploys), user feedback and replays of acme/web. Returns what to try.
 */
export function seedIncidentDemo(state: FakeState): { issue: string; replay: string; feedback: string } {
  const issue = seedIncident(state, "acme", "WEB-4Y");
  const [feedback] = seedFeedback(state);
  const [replay] = seedReplays(state);
  return { issue: `acme/${issue.shortId}`, replay: replay as string, feedback: `acme/${feedback?.shortId}` };
}
