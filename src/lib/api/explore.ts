/**
 * Explore queries (API.md 17.1, 17.3, 17.4): table queries of the events endpoint over a dataset
 * (`errors`, `spans`, `logs`) and time series of `events-timeseries/`. Rows keep the service's
 * keys exactly (aggregates in their written form, `"p95(span.duration)"`).
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { apiRequest, apiRequestDeferred } from "../http/client.ts";
import { fetchLimited, type Page } from "../http/paginate.ts";
import { type Window, windowQuery } from "../time-window.ts";

/** Datasets `tracker query` offers (the published ones a person reads). */
export const QUERY_DATASETS = ["errors", "spans", "logs"] as const;
/** A dataset of `tracker query`. */
export type QueryDataset = (typeof QUERY_DATASETS)[number];

/** Most fields one events request may name (the service's 400 above it). */
export const MAX_QUERY_FIELDS = 20;

/** `meta` of a table answer: a type per field and a unit per field (null when none). */
export const QueryMeta = v.looseObject({
  fields: v.optional(v.record(v.string(), v.string()), {}),
  units: v.optional(v.record(v.string(), v.nullable(v.string())), {}),
  dataset: v.nullish(v.string()),
});
/** A validated `meta`. */
export type QueryMeta = v.InferOutput<typeof QueryMeta>;

/** One row: exactly the requested fields as keys. */
export type QueryRow = Record<string, unknown>;

const TableResponse = v.object({
  data: v.array(v.record(v.string(), v.unknown())),
  meta: v.optional(QueryMeta, {}),
});

/** Options of queryEvents. */
export interface QueryEventsOptions {
  org: string;
  dataset: string;
  fields: readonly string[];
  /** Numeric project ids; `-1` = every project of the organization. */
  projects: readonly string[];
  query?: string;
  sort?: string;
  period: Window;
  limit: number;
  cursor?: string;
}

/** A page of rows with the `meta` of its first response. */
export interface QueryPage extends Page<QueryRow> {
  meta: QueryMeta;
}

/** Table rows of one dataset, paging (≤ 100 per request) up to `limit`. */
export async function queryEvents(ctx: TrackerContext, opts: QueryEventsOptions): Promise<QueryPage> {
  let meta: QueryMeta | undefined;
  const page = await fetchLimited(opts.limit, opts.cursor, async (size, cursor) => {
    const res = await apiRequestDeferred(ctx, {
      path: `/api/0/organizations/${encodeURIComponent(opts.org)}/events/`,
      host: { org: opts.org },
      query: {
        dataset: opts.dataset,
        field: [...opts.fields],
        project: [...opts.projects],
        query: opts.query || undefined,
        sort: opts.sort,
        per_page: size,
        ...windowQuery(opts.period),
        cursor,
      },
      schema: TableResponse,
    });
    return {
      rows: () => {
        const body = res.parse();
        meta ??= body.meta;
        return body.data;
      },
      nextCursor: res.nextCursor,
    };
  });
  return { ...page, meta: meta ?? { fields: {}, units: {} } };
}

/** One point of a series (timestamp in ms). */
export const SeriesValue = v.looseObject({
  timestamp: v.number(),
  value: v.nullable(v.number()),
  incomplete: v.nullish(v.boolean()),
});

/** One series of `events-timeseries/`. */
export const TimeSeries = v.looseObject({
  yAxis: v.string(),
  groupBy: v.nullish(v.array(v.looseObject({ key: v.string(), value: v.unknown() }))),
  values: v.array(SeriesValue),
  meta: v.optional(
    v.looseObject({
      valueType: v.nullish(v.string()),
      valueUnit: v.nullish(v.string()),
      interval: v.nullish(v.number()),
      isOther: v.nullish(v.boolean()),
    }),
    {},
  ),
});
/** A validated series. */
export type TimeSeries = v.InferOutput<typeof TimeSeries>;

const TimeseriesResponse = v.looseObject({
  timeSeries: v.array(TimeSeries),
  meta: v.optional(v.unknown()),
});
/** A validated `events-timeseries/` answer. */
export type TimeseriesResponse = v.InferOutput<typeof TimeseriesResponse>;

/** Options of queryTimeseries. */
export interface TimeseriesOptions {
  org: string;
  dataset: string;
  yAxis: readonly string[];
  groupBy: readonly string[];
  /** Series asked for when grouping (1–10). */
  topEvents?: number;
  projects: readonly string[];
  query?: string;
  sort?: string;
  period: Window;
  /** Bucket size in seconds (the published form). */
  intervalSeconds: number;
}

/** Time series of one or more aggregates, one request. */
export async function queryTimeseries(
  ctx: TrackerContext,
  opts: TimeseriesOptions,
): Promise<TimeseriesResponse> {
  const grouped = opts.groupBy.length > 0;
  const res = await apiRequest(ctx, {
    path: `/api/0/organizations/${encodeURIComponent(opts.org)}/events-timeseries/`,
    host: { org: opts.org },
    query: {
      dataset: opts.dataset,
      yAxis: [...opts.yAxis],
      groupBy: grouped ? [...opts.groupBy] : undefined,
      topEvents: grouped ? opts.topEvents : undefined,
      sort: grouped ? opts.sort : undefined,
      project: [...opts.projects],
      query: opts.query || undefined,
      ...windowQuery(opts.period),
      interval: opts.intervalSeconds,
    },
    schema: TimeseriesResponse,
  });
  return res.data;
}

/** True for an aggregate (`count()`, `p95(span.duration)`) rather than a plain field. */
export function isAggregate(field: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*\(.*\)$/.test(field.trim());
}
