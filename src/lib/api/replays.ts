/**
 * Session replays (API.md §22.9): the organization's replay index, one replay, and its recording
 * segments (rrweb events; the breadcrumbs of the session are custom events tagged `breadcrumb`).
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { apiRequest } from "../http/client.ts";
import { fetchLimited, type Page } from "../http/paginate.ts";

/** The replay fields requested from the index (invalid fields are rejected by the server). */
export const REPLAY_FIELDS = [
  "id",
  "project_id",
  "started_at",
  "finished_at",
  "duration",
  "user",
  "urls",
  "count_urls",
  "count_errors",
  "count_rage_clicks",
  "count_dead_clicks",
  "error_ids",
  "trace_ids",
  "environment",
  "browser",
  "os",
  "platform",
  "releases",
] as const;

const str = v.optional(v.nullable(v.string()));
const num = v.optional(v.nullable(v.number()));
const named = v.optional(v.nullable(v.looseObject({ name: str, version: str })));

/** A replay (every field optional and nullable as the published schema allows). */
export const ApiReplay = v.looseObject({
  id: v.string(),
  project_id: v.optional(v.nullable(v.union([v.string(), v.number()]))),
  started_at: str,
  finished_at: str,
  duration: num,
  user: v.optional(
    v.nullable(v.looseObject({ id: str, username: str, email: str, ip: str, display_name: str })),
  ),
  urls: v.optional(v.nullable(v.array(v.string()))),
  count_urls: num,
  count_errors: num,
  count_rage_clicks: num,
  count_dead_clicks: num,
  error_ids: v.optional(v.nullable(v.array(v.string()))),
  trace_ids: v.optional(v.nullable(v.array(v.string()))),
  environment: str,
  browser: named,
  os: named,
  platform: str,
  releases: v.optional(v.nullable(v.array(v.string()))),
});
/** A validated replay. */
export type ApiReplay = v.InferOutput<typeof ApiReplay>;

/** Options of a replay listing. */
export interface ReplayListOptions {
  org: string;
  projectId: string;
  period: string;
  limit: number;
  query?: string;
  cursor?: string;
}

/** The project's replays, newest first, up to `limit`. */
export async function listReplays(ctx: TrackerContext, o: ReplayListOptions): Promise<Page<ApiReplay>> {
  return fetchLimited(o.limit, o.cursor, async (size, cursor) => {
    const res = await apiRequest(ctx, {
      path: `/api/0/organizations/${encodeURIComponent(o.org)}/replays/`,
      host: { org: o.org },
      query: {
        field: [...REPLAY_FIELDS],
        project: o.projectId,
        sort: "-started_at",
        statsPeriod: o.period,
        per_page: size,
        query: o.query,
        cursor,
      },
      schema: v.looseObject({ data: v.array(ApiReplay) }),
    });
    return { rows: () => res.data.data, nextCursor: res.nextCursor };
  });
}

const replayPath = (org: string, project: string, id: string) =>
  `/api/0/projects/${encodeURIComponent(org)}/${encodeURIComponent(project)}/replays/${encodeURIComponent(id)}/`;

/** One replay of a project. */
export async function getReplay(
  ctx: TrackerContext,
  org: string,
  project: string,
  id: string,
): Promise<ApiReplay> {
  const res = await apiRequest(ctx, {
    path: replayPath(org, project, id),
    host: { org },
    schema: v.looseObject({ data: ApiReplay }),
  });
  return res.data.data;
}

/** One rrweb event of a recording (only the custom events are read further). */
const RrwebEvent = v.looseObject({
  type: v.optional(v.nullable(v.number())),
  timestamp: v.optional(v.nullable(v.number())),
  data: v.optional(v.unknown()),
});
/** A validated recording event. */
export type RrwebEvent = v.InferOutput<typeof RrwebEvent>;

/** The first 100 recording segments of a replay, each an array of rrweb events. */
export async function listReplaySegments(
  ctx: TrackerContext,
  org: string,
  project: string,
  id: string,
): Promise<RrwebEvent[][]> {
  const res = await apiRequest(ctx, {
    path: `${replayPath(org, project, id)}recording-segments/`,
    host: { org },
    query: { per_page: 100 },
    schema: v.array(v.array(RrwebEvent)),
  });
  return res.data;
}
