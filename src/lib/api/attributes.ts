/**
 * The fields and tags a query can use (API.md §22.3): trace-item attributes of the spans and logs
 * datasets (one request per page, every type at once: each row carries its `attributeType`), and
 * the tag keys of error events.
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { apiRequest, apiRequestDeferred } from "../http/client.ts";
import { fetchLimited, type Page } from "../http/paginate.ts";
import { type Window, windowQuery } from "../time-window.ts";

/** Datasets `attribute list` knows. */
export const ATTRIBUTE_DATASETS = ["spans", "logs", "errors"] as const;
/** One dataset. */
export type AttributeDataset = (typeof ATTRIBUTE_DATASETS)[number];

const TraceItemAttribute = v.looseObject({
  key: v.string(),
  name: v.optional(v.nullable(v.string())),
  attributeType: v.optional(v.nullable(v.string())),
  attributeSource: v.optional(v.nullable(v.looseObject({ source_type: v.optional(v.nullable(v.string())) }))),
});
const TagKey = v.looseObject({
  key: v.string(),
  name: v.optional(v.nullable(v.string())),
  totalValues: v.optional(v.nullable(v.number())),
});

/** A field or tag a query can name, with its type and where it comes from. */
export interface Attribute {
  /** What a query uses (`span.op`, `tags[amount,number]`, `browser.name`). */
  key: string;
  /** The name as shown (`amount`). */
  name: string;
  /** `string`, `number` or `boolean`. */
  type: string;
  /** `sentry` (built in), `user` (sent by the app) or `tag` (an error-event tag). */
  source: string;
  /** Distinct values seen (error tags only). */
  totalValues?: number;
}

/** What to list. */
export interface AttributeQuery {
  org: string;
  dataset: AttributeDataset;
  /** Numeric project ids; `["-1"]` = every accessible project. */
  projects: readonly string[];
  /** Only names containing this text (the service's case-sensitive `substringMatch`). */
  substring?: string;
  period: Window;
  environments: readonly string[];
  limit: number;
  cursor?: string;
}

function scopeQuery(q: AttributeQuery) {
  return {
    project: q.projects,
    environment: q.environments.length > 0 ? q.environments : undefined,
    ...windowQuery(q.period),
  };
}

/** Up to `limit` attributes of the spans or logs dataset (≤ 100 per request). */
async function listTraceItemAttributes(ctx: TrackerContext, q: AttributeQuery): Promise<Page<Attribute>> {
  return fetchLimited(q.limit, q.cursor, async (size, cursor) => {
    const res = await apiRequestDeferred(ctx, {
      path: `/api/0/organizations/${encodeURIComponent(q.org)}/trace-items/attributes/`,
      host: { org: q.org },
      query: {
        dataset: q.dataset,
        ...scopeQuery(q),
        substringMatch: q.substring || undefined,
        per_page: size,
        cursor,
      },
      schema: v.array(TraceItemAttribute),
    });
    return {
      rows: () =>
        res.parse().map((a) => ({
          key: a.key,
          name: a.name ?? a.key,
          type: a.attributeType ?? "string",
          source: a.attributeSource?.source_type ?? "sentry",
        })),
      nextCursor: res.nextCursor,
    };
  });
}

/** The tag keys of error events (one request: the endpoint does not page); filtered and cut here. */
async function listErrorTags(ctx: TrackerContext, q: AttributeQuery): Promise<Page<Attribute>> {
  const res = await apiRequest(ctx, {
    path: `/api/0/organizations/${encodeURIComponent(q.org)}/tags/`,
    host: { org: q.org },
    query: { dataset: "events", ...scopeQuery(q) },
    schema: v.array(TagKey),
  });
  const all = res.data
    .filter((t) => !q.substring || t.key.includes(q.substring))
    .map((t) => ({
      key: t.key,
      name: t.name ?? t.key,
      type: "string",
      source: "tag",
      ...(typeof t.totalValues === "number" ? { totalValues: t.totalValues } : {}),
    }));
  return { data: all.slice(0, q.limit), nextCursor: undefined };
}

/** The attributes of a dataset: trace-item attributes for spans and logs, tag keys for errors. */
export function listAttributes(ctx: TrackerContext, q: AttributeQuery): Promise<Page<Attribute>> {
  return q.dataset === "errors" ? listErrorTags(ctx, q) : listTraceItemAttributes(ctx, q);
}
