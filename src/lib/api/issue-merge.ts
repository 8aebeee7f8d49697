/**
 * Merging issues (API.md §22.5): one bulk PUT with explicit ids and `{"merge": true}`. Sentry keeps
 * the issue with the most events as the parent, whatever the order; the answer names it.
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { apiRequest } from "../http/client.ts";

/** What a merge answers: the parent Sentry chose and the issues merged into it. */
export const MergeResult = v.looseObject({
  merge: v.looseObject({
    parent: v.union([v.string(), v.number()]),
    children: v.optional(v.nullable(v.array(v.union([v.string(), v.number()])))),
  }),
});

/** The request a merge sends (what `--dry-run` prints). */
export function mergeRequest(org: string, ids: readonly string[]) {
  const path = `/api/0/organizations/${encodeURIComponent(org)}/issues/`;
  const query = ids.map((id) => `id=${encodeURIComponent(id)}`).join("&");
  return { method: "PUT" as const, path: `${path}?${query}`, body: { merge: true } };
}

/** Merges issues of one organization; resolves to the parent's id and the children's, or null (204). */
export async function mergeIssues(
  ctx: TrackerContext,
  org: string,
  ids: readonly string[],
): Promise<{ parent: string; children: string[] } | null> {
  const res = await apiRequest(ctx, {
    method: "PUT",
    path: `/api/0/organizations/${encodeURIComponent(org)}/issues/`,
    host: { org },
    query: { id: ids },
    json: { merge: true },
    retry: "unsent",
    schema: v.nullable(MergeResult),
  });
  if (!res.data) return null;
  return {
    parent: String(res.data.merge.parent),
    children: (res.data.merge.children ?? []).map(String),
  };
}
