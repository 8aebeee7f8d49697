/**
 * Session replays (API.md §22.9): the organization's index (every `field` checked against the
 * published list, `project`, `statsPeriod`, `query` with `count_errors:>N`, `-started_at` order),
 * one replay of a project, and its recording segments with breadcrumb events. Nothing exists until
 * `seedReplays` adds them.
 */
import { detail, json, notFound, paginate } from "../http.ts";
import type { FakeRequest, FakeState, Route } from "../types.ts";
import { FAKE_NOW_MS } from "../clock.ts";
import { FEEDBACK_REPLAY_ID } from "./feedback.ts";
import { canSeeOrg, findOrg, findProject } from "./orgs.ts";

/** The fields the replay index accepts (the published enum). */
const FIELDS = new Set(
  "activity browser clicks count_dead_clicks count_errors count_infos count_rage_clicks count_segments count_urls count_warnings device dist duration environment error_ids finished_at has_viewed id is_archived os ota_updates platform project_id releases replay_type sdk segment_names started_at tags trace_ids urls user".split(
    " ",
  ),
);

interface FakeReplay {
  org: string;
  projectId: string;
  body: Record<string, unknown>;
  segments: unknown[][];
}

function replays(state: FakeState): FakeReplay[] {
  return (state.store.get("replays") as FakeReplay[] | undefined) ?? [];
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Three replays of acme/web; the first is the one the seeded feedback came with (5 breadcrumbs). */
export function seedReplays(state: FakeState): string[] {
  const make = (
    id: string,
    minutesAgo: number,
    seconds: number,
    errors: number,
    user: Record<string, unknown> | null,
    urls: string[],
  ) => {
    const start = FAKE_NOW_MS - minutesAgo * 60_000;
    const crumb = (offsetS: number, category: string, message: string, data?: Record<string, unknown>) => ({
      type: 5,
      timestamp: start + offsetS * 1000,
      data: {
        tag: "breadcrumb",
        payload: {
          timestamp: start / 1000 + offsetS,
          type: "default",
          category,
          message,
          level: "info",
          ...(data ? { data } : {}),
        },
      },
    });
    const segments =
      id === FEEDBACK_REPLAY_ID
        ? [
            [
              { type: 4, timestamp: start, data: { href: urls[0] } },
              crumb(0, "navigation", "", { from: "/", to: "/checkout" }),
            ],
            [
              crumb(12, "ui.click", "button#apply-coupon"),
              crumb(14, "console", "TypeError: items is undefined"),
              { type: 3, timestamp: start + 15_000, data: {} },
            ],
            [
              crumb(20, "ui.click", "button.checkout"),
              crumb(31, "sentry.feedback", "User submitted feedback"),
            ],
          ]
        : [];
    return {
      org: "acme",
      projectId: "300001",
      segments,
      body: {
        id,
        project_id: "300001",
        started_at: iso(start),
        finished_at: iso(start + seconds * 1000),
        duration: seconds,
        user,
        urls,
        count_urls: urls.length,
        count_errors: errors,
        count_rage_clicks: errors > 0 ? 2 : 0,
        count_dead_clicks: 0,
        error_ids: errors > 0 ? ["a".repeat(32)] : [],
        trace_ids: ["aaaa1111bbbb2222cccc3333dddd4444"],
        environment: "production",
        browser: { name: "Chrome", version: "131.0" },
        os: { name: "macOS", version: "15.1" },
        platform: "javascript",
        releases: ["web@1.5.0"],
        tags: {},
        activity: 4,
        is_archived: false,
        has_viewed: false,
      },
    };
  };
  const list: FakeReplay[] = [
    make(
      FEEDBACK_REPLAY_ID,
      21,
      95,
      1,
      { id: "u-1", username: null, email: "ana@example.org", ip: "192.0.2.10", display_name: "Ana Lima" },
      ["https://shop.example.com/", "https://shop.example.com/checkout"],
    ),
    make(
      "4d6f2b8c0e3a5f7b9c1d3e5f7a9b1c3d",
      180,
      640,
      0,
      { id: null, username: null, email: null, ip: "192.0.2.11", display_name: null },
      ["https://shop.example.com/"],
    ),
    make("5e7a3c9d1f4b6a8c0d2e4f6a8b0c2d4e", 60 * 24 * 10, 30, 2, null, ["https://shop.example.com/cart"]),
  ];
  state.store.set("replays", list);
  return list.map((r) => String(r.body.id));
}

const PERIOD_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

function listReplays(req: FakeRequest): Response {
  const org = findOrg(req.state, req.params.org ?? "");
  if (!org || !canSeeOrg(req, org)) return notFound();
  const bad = req.query.getAll("field").find((f) => !FIELDS.has(f));
  if (bad) return json({ field: [`"${bad}" is not a valid choice.`] }, 400);
  const period = req.query.get("statsPeriod");
  const m = period ? /^(\d+)([mhdw])$/.exec(period) : null;
  if (period && !m) return detail(400, `Invalid statsPeriod: '${period}'`);
  const since = m
    ? FAKE_NOW_MS - Number(m[1]) * (PERIOD_MS[m[2] as string] as number)
    : Number.NEGATIVE_INFINITY;
  const projects = req.query.getAll("project");
  const minErrors = /count_errors:>(\d+)/.exec(req.query.get("query") ?? "");
  const rows = replays(req.state)
    .filter((r) => r.org === org.slug && (projects.length === 0 || projects.includes(r.projectId)))
    .filter((r) => Date.parse(String(r.body.started_at)) >= since)
    .filter((r) => !minErrors || Number(r.body.count_errors) > Number(minErrors[1]))
    .map((r) => r.body);
  return paginate(req, rows, { sizeParam: "per_page", defaultSize: 50, wrap: (data) => ({ data }) });
}

function replayOr404(req: FakeRequest): FakeReplay | Response {
  const org = findOrg(req.state, req.params.org ?? "");
  if (!org || !canSeeOrg(req, org)) return notFound();
  const p = findProject(req.state, org, req.params.project ?? "");
  const r = replays(req.state).find((x) => x.body.id === req.params.id && x.projectId === p?.id);
  return r ?? notFound();
}

/** Routes of this module. */
export const replayRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/api/0/organizations/:org/replays/",
    hosts: "region",
    scopes: ["event:read"],
    handler: listReplays,
  },
  {
    method: "GET",
    pattern: "/api/0/projects/:org/:project/replays/:id/",
    hosts: "region",
    scopes: ["event:read"],
    handler: (req) => {
      const r = replayOr404(req);
      return r instanceof Response ? r : json({ data: r.body });
    },
  },
  {
    method: "GET",
    pattern: "/api/0/projects/:org/:project/replays/:id/recording-segments/",
    hosts: "region",
    scopes: ["event:read"],
    handler: (req) => {
      const r = replayOr404(req);
      return r instanceof Response
        ? r
        : paginate(req, r.segments, { sizeParam: "per_page", defaultSize: 10 });
    },
  },
];
