/**
 * Issue tags (API.md 17.5): every key of an issue with its top values, and all values of one key.
 * `{id}` may be the numeric or the short id.
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { apiRequest, apiRequestDeferred } from "../http/client.ts";
import type { FetchedPage } from "../http/paginate.ts";

/** Top values asked per key when listing every key. */
export const TAG_TOP_VALUES = 3;

/** One value of a tag. Sentry's serializer puts the key in `key`; the value is in `value`. */
export const TagValue = v.looseObject({
  key: v.nullish(v.string()),
  name: v.nullish(v.string()),
  value: v.nullish(v.string()),
  count: v.nullish(v.number()),
  lastSeen: v.nullish(v.string()),
  firstSeen: v.nullish(v.string()),
});
/** A validated tag value. */
export type TagValue = v.InferOutput<typeof TagValue>;

/** One tag key with its top values. */
export const IssueTag = v.looseObject({
  key: v.string(),
  name: v.nullish(v.string()),
  totalValues: v.nullish(v.number()),
  uniqueValues: v.nullish(v.number()),
  topValues: v.optional(v.array(TagValue), []),
});
/** A validated tag key. */
export type IssueTag = v.InferOutput<typeof IssueTag>;

function base(org: string, issue: string): string {
  return `/api/0/organizations/${encodeURIComponent(org)}/issues/${encodeURIComponent(issue)}/tags/`;
}

/** Every tag key of an issue with its top `TAG_TOP_VALUES` values (one request). */
export async function listIssueTags(ctx: TrackerContext, org: string, issue: string): Promise<IssueTag[]> {
  const res = await apiRequest(ctx, {
    path: base(org, issue),
    host: { org },
    query: { limit: TAG_TOP_VALUES },
    schema: v.array(IssueTag),
  });
  return res.data;
}

/** One tag key of an issue (its totals); unknown key → 404. */
export async function getIssueTag(
  ctx: TrackerContext,
  org: string,
  issue: string,
  key: string,
): Promise<IssueTag> {
  const res = await apiRequest(ctx, {
    path: `${base(org, issue)}${encodeURIComponent(key)}/`,
    host: { org },
    schema: IssueTag,
  });
  return res.data;
}

/** One page of a key's values, most frequent first. */
export async function listIssueTagValuesPage(
  ctx: TrackerContext,
  org: string,
  issue: string,
  key: string,
  page: { size: number; cursor?: string },
): Promise<FetchedPage<TagValue>> {
  const res = await apiRequestDeferred(ctx, {
    path: `${base(org, issue)}${encodeURIComponent(key)}/values/`,
    host: { org },
    query: { sort: "-count", per_page: page.size, cursor: page.cursor },
    schema: v.array(TagValue),
  });
  return { rows: () => res.parse(), nextCursor: res.nextCursor };
}
