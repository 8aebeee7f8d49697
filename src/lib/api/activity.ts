/**
 * An issue's activity (API.md §22.4): notes, status changes, assignments, regressions, merges and
 * external links, newest first, at most 100. The same list is the `activity` field of the issue
 * detail, so `issue view` reads it without another request.
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { apiRequest } from "../http/client.ts";

/** Who did it: a user (fields optional and nullable as published), or null for the system. */
const ActivityUser = v.looseObject({
  id: v.optional(v.nullable(v.union([v.string(), v.number()]))),
  name: v.optional(v.nullable(v.string())),
  username: v.optional(v.nullable(v.string())),
  email: v.optional(v.nullable(v.string())),
});

/** One activity item; `data` depends on `type` and is read field by field. */
export const Activity = v.looseObject({
  id: v.union([v.string(), v.number()]),
  type: v.string(),
  user: v.optional(v.nullable(ActivityUser)),
  sentry_app: v.optional(v.nullable(v.looseObject({ name: v.optional(v.nullable(v.string())) }))),
  data: v.optional(v.nullable(v.record(v.string(), v.unknown()))),
  dateCreated: v.string(),
});
/** A validated activity item. */
export type Activity = v.InferOutput<typeof Activity>;

/**
 * The `activity` field of an issue detail: display-only, so an odd item drops the list (an empty
 * list), never the issue.
 */
export const ActivityField = v.fallback(v.optional(v.array(Activity)), undefined);

/** `GET organizations/{org}/issues/{id}/activities/` → the activity, newest first. */
export async function listActivity(ctx: TrackerContext, org: string, id: string): Promise<Activity[]> {
  const res = await apiRequest(ctx, {
    path: `/api/0/organizations/${encodeURIComponent(org)}/issues/${encodeURIComponent(id)}/activities/`,
    host: { org },
    schema: v.looseObject({ activity: v.array(Activity) }),
  });
  return res.data.activity;
}
