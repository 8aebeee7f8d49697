/**
 * Changing issues (API.md §15): single and bulk updates, notes, and what assignees resolve
 * through (the current user, the organization's teams). Writes are resent only when the server
 * cannot have acted on them (no connection made, or 429 with Retry-After).
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { apiRequest } from "../http/client.ts";
import { fetchAllPages } from "../http/paginate.ts";
import type { PlannedRequest } from "../dry-run.ts";

/** Who an issue is assigned to. */
export const Actor = v.looseObject({
  type: v.optional(v.nullable(v.string())),
  id: v.union([v.string(), v.number()]),
  name: v.optional(v.nullable(v.string())),
  email: v.optional(v.nullable(v.string())),
});

/** The changed fields an update answers with (not always the whole issue). */
export const UpdateResult = v.looseObject({
  status: v.optional(v.nullable(v.string())),
  substatus: v.optional(v.nullable(v.string())),
  statusDetails: v.optional(v.nullable(v.record(v.string(), v.unknown()))),
  assignedTo: v.optional(v.nullable(Actor)),
});
/** A validated update answer. */
export type UpdateResult = v.InferOutput<typeof UpdateResult>;

/** The body of an issue update (API.md §15). */
export interface IssueUpdate {
  status?: "resolved" | "unresolved" | "ignored";
  statusDetails?: Record<string, unknown>;
  substatus?: string;
  assignedTo?: string | null;
}

/** Largest number of issues one bulk update may name. */
export const BULK_MAX = 100;

/** The request updateIssues would send, as `--dry-run` prints it. */
export function plannedIssueUpdate(org: string, ids: readonly string[], body: IssueUpdate): PlannedRequest {
  const base = `/api/0/organizations/${encodeURIComponent(org)}/issues/`;
  const path =
    ids.length === 1
      ? `${base}${encodeURIComponent(ids[0] as string)}/`
      : `${base}?${ids.map((id) => `id=${encodeURIComponent(id)}`).join("&")}`;
  return { method: "PUT", path, body };
}

/**
 * Updates issues of one organization: one issue through its own endpoint, several (≤ 100) through
 * the bulk endpoint with explicit `id=` parameters (never a query: its reach is unbounded).
 * Resolves to the applied fields, or null when the server matched nothing (204).
 */
export async function updateIssues(
  ctx: TrackerContext,
  org: string,
  ids: readonly string[],
  body: IssueUpdate,
): Promise<UpdateResult | null> {
  const base = `/api/0/organizations/${encodeURIComponent(org)}/issues/`;
  const one = ids.length === 1;
  const res = await apiRequest(ctx, {
    method: "PUT",
    path: one ? `${base}${encodeURIComponent(ids[0] as string)}/` : base,
    host: { org },
    query: one ? undefined : { id: ids },
    json: body,
    retry: "unsent",
    schema: v.nullable(UpdateResult),
  });
  return res.data;
}

/** A note (comment) on an issue. */
export const Note = v.looseObject({
  id: v.string(),
  type: v.optional(v.nullable(v.string())),
  data: v.looseObject({ text: v.string() }),
  dateCreated: v.optional(v.nullable(v.string())),
  user: v.optional(
    v.nullable(v.looseObject({ id: v.optional(v.string()), name: v.optional(v.nullable(v.string())) })),
  ),
});
/** A validated note. */
export type Note = v.InferOutput<typeof Note>;

/** Adds a note to an issue. */
export async function addNote(ctx: TrackerContext, org: string, id: string, text: string): Promise<Note> {
  const res = await apiRequest(ctx, {
    method: "POST",
    path: `/api/0/organizations/${encodeURIComponent(org)}/issues/${encodeURIComponent(id)}/comments/`,
    host: { org },
    json: { text },
    retry: "unsent",
    schema: Note,
  });
  return res.data;
}

const Team = v.looseObject({ id: v.string(), slug: v.string(), name: v.optional(v.nullable(v.string())) });

/** The organization's teams (for `#team-slug` assignees). */
export async function listTeams(ctx: TrackerContext, org: string): Promise<v.InferOutput<typeof Team>[]> {
  return fetchAllPages(ctx, {
    path: `/api/0/organizations/${encodeURIComponent(org)}/teams/`,
    host: { org },
    schema: v.array(Team),
  });
}

/** The id of the user the token belongs to (`me`). */
export async function currentUserId(ctx: TrackerContext): Promise<string> {
  const res = await apiRequest(ctx, {
    path: "/api/0/auth/",
    host: "control",
    schema: v.looseObject({ id: v.union([v.string(), v.number()]) }),
  });
  return String(res.data.id);
}
