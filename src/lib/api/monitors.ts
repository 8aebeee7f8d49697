/** Cron monitor endpoints (API.md §18.3): the organization's monitors with their environments. */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { apiRequest } from "../http/client.ts";

/** Most monitors asked for in the one request of `monitor list`. */
export const MONITOR_PAGE_SIZE = 100;

/** One environment of a monitor: its status and check-in times. */
export const MonitorEnvironment = v.looseObject({
  name: v.string(),
  status: v.nullish(v.string()),
  lastCheckIn: v.nullish(v.string()),
  nextCheckIn: v.nullish(v.string()),
  nextCheckInLatest: v.nullish(v.string()),
});
/** A validated monitor environment. */
export type MonitorEnvironment = v.InferOutput<typeof MonitorEnvironment>;

/** A monitor's schedule: a crontab string, or `[n, unit]` for intervals. */
const Schedule = v.union([v.string(), v.tuple([v.number(), v.string()])]);

/** One monitor; unknown fields are kept. */
export const Monitor = v.looseObject({
  id: v.string(),
  slug: v.string(),
  name: v.string(),
  status: v.string(),
  isMuted: v.optional(v.boolean()),
  config: v.looseObject({
    schedule_type: v.nullish(v.string()),
    schedule: v.nullish(Schedule),
    checkin_margin: v.nullish(v.number()),
    max_runtime: v.nullish(v.number()),
    timezone: v.nullish(v.string()),
  }),
  project: v.nullish(v.unknown()),
  // The published schema says object; Sentry sends a list (API.md §18.3). Both are read as a list.
  environments: v.nullish(
    v.pipe(
      v.union([v.array(MonitorEnvironment), v.record(v.string(), MonitorEnvironment)]),
      v.transform((e) => (Array.isArray(e) ? e : Object.values(e))),
    ),
    [],
  ),
});
/** A validated monitor. */
export type Monitor = v.InferOutput<typeof Monitor>;

/** The first page of an organization's monitors (one request) and whether more exist. */
export async function listMonitors(
  ctx: TrackerContext,
  org: string,
): Promise<{ monitors: Monitor[]; hasMore: boolean }> {
  const res = await apiRequest(ctx, {
    path: `/api/0/organizations/${encodeURIComponent(org)}/monitors/`,
    host: { org },
    query: { per_page: MONITOR_PAGE_SIZE },
    schema: v.array(Monitor),
  });
  return { monitors: res.data, hasMore: res.nextCursor !== undefined };
}
