/**
 * User feedback (API.md §22.8): feedback issues in the issue store (so detail and updates work as
 * for any issue), answered by the issue search when it asks for `issue.category:feedback`, with a
 * feedback event (its `feedback` context names the page, the replay and the error event).
 * Nothing exists until `seedFeedback` adds it.
 */
import { detail, json, paginate } from "../http.ts";
import type { FakeRequest, FakeState, Route } from "../types.ts";
import { FAKE_NOW_MS } from "../clock.ts";
import {
  addIssue,
  type FakeIssue,
  issueJson,
  issueStore,
  latestEventJson,
  listIssues,
  orgIssueOr404,
} from "./issues.ts";
import { canSeeOrg, findOrg } from "./orgs.ts";

/** What a person wrote, and where from. */
export interface FakeFeedback {
  message: string;
  name: string | null;
  email: string | null;
  url: string;
  replayId: string | null;
  associatedEventId: string | null;
}

function feedbackStore(state: FakeState): Map<string, FakeFeedback> {
  let m = state.store.get("feedback") as Map<string, FakeFeedback> | undefined;
  if (!m) {
    m = new Map();
    state.store.set("feedback", m);
  }
  return m;
}

/** The replay id the first seeded feedback came with (replays.ts seeds a replay with it). */
export const FEEDBACK_REPLAY_ID = "3c5e1a7b9d2f4e6a8b0c1d2e3f4a5b6c";

/**
 * Three feedback issues in acme/web: two in the inbox (one with a replay and an error event), one
 * spam. Returns them, newest first.
 */
export function seedFeedback(state: FakeState): FakeIssue[] {
  const rows: [FakeFeedback, number, FakeIssue["status"]][] = [
    [
      {
        message: "The checkout button does nothing after I add a coupon.\nTried twice.",
        name: "Ana Lima",
        email: "ana@example.org",
        url: "https://shop.example.com/checkout",
        replayId: FEEDBACK_REPLAY_ID,
        associatedEventId: "a".repeat(32),
      },
      20,
      "unresolved",
    ],
    [
      {
        message: "Love the new dark mode",
        name: null,
        email: "sam@example.org",
        url: "https://shop.example.com/",
        replayId: null,
        associatedEventId: null,
      },
      300,
      "unresolved",
    ],
    [
      {
        message: "BUY CHEAP WATCHES",
        name: "spam",
        email: null,
        url: "https://shop.example.com/",
        replayId: null,
        associatedEventId: null,
      },
      600,
      "ignored",
    ],
  ];
  const store = feedbackStore(state);
  return rows.map(([fb, minutesAgo, status]) => {
    const at = FAKE_NOW_MS - minutesAgo * 60_000;
    const issue = addIssue(state, "acme", "web", {
      title: `User Feedback: ${fb.message.split("\n")[0]}`,
      level: "info",
      status,
      count: 1,
      userCount: 1,
      firstSeen: at,
      lastSeen: at,
      culprit: "user feedback",
    });
    Object.assign(issue.metadata, {
      message: fb.message,
      name: fb.name,
      contact_email: fb.email,
      source: "new_feedback_envelope",
      title: "User Feedback",
    });
    store.set(issue.id, fb);
    return issue;
  });
}

function listFeedback(req: FakeRequest): Response {
  const query = req.query.get("query") ?? "";
  if (!query.includes("issue.category:feedback")) return listIssues(req);
  const org = findOrg(req.state, req.params.org ?? "");
  if (!org || !canSeeOrg(req, org)) return detail(404, "The requested resource does not exist");
  const status = /status:(\w+)/.exec(query)?.[1];
  if (status && !["unresolved", "resolved", "ignored"].includes(status))
    return detail(400, `Error parsing search query: Invalid value for "status" search: ${status}`);
  const projects = req.query.getAll("project");
  const store = feedbackStore(req.state);
  const items = issueStore(req.state)
    .issues.filter(
      (x) =>
        x.org === org.slug && store.has(x.id) && (projects.length === 0 || projects.includes(x.projectId)),
    )
    .filter((x) => !status || x.status === status)
    .sort((a, b) => b.firstSeen - a.firstSeen)
    .map((x) => ({ ...issueJson(req.state, x), issueCategory: "feedback", issueType: "feedback" }));
  return paginate(req, items, { sizeParam: "limit", defaultSize: 100 });
}

function latestEvent(req: FakeRequest): Response {
  const r = orgIssueOr404(req);
  if (r instanceof Response) return r;
  const base = latestEventJson(req.state, r.issue);
  const fb = feedbackStore(req.state).get(r.issue.id);
  if (!fb) return json(base);
  return json({
    ...base,
    entries: [],
    tags: [{ key: "url", value: fb.url }, ...(fb.replayId ? [{ key: "replayId", value: fb.replayId }] : [])],
    contexts: {
      feedback: {
        message: fb.message,
        contact_email: fb.email,
        name: fb.name,
        url: fb.url,
        replay_id: fb.replayId,
        associated_event_id: fb.associatedEventId,
        source: "widget",
      },
      ...(fb.replayId ? { replay: { replay_id: fb.replayId } } : {}),
    },
  });
}

/** Routes of this module (before issues.ts, whose search and latest event they extend). */
export const feedbackRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/api/0/organizations/:org/issues/",
    hosts: "region",
    scopes: ["event:read"],
    handler: listFeedback,
  },
  {
    method: "GET",
    pattern: "/api/0/organizations/:org/issues/:id/events/latest/",
    hosts: "region",
    scopes: ["event:read"],
    handler: latestEvent,
  },
];
