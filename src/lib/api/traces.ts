/**
 * Trace endpoints (API.md section 7): recent transactions from the Discover events query, and the
 * span tree of one trace.
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { apiRequest, apiRequestDeferred } from "../http/client.ts";
import { fetchLimited, type Page } from "../http/paginate.ts";
import { TRACE_LIST_PERIOD, TRACE_VIEW_PERIOD } from "../traces/windows.ts";

/** Most spans asked for in one trace (the reference's value). */
export const TRACE_VIEW_SPAN_LIMIT = 10_000;

/** Columns requested from the transactions dataset; `sort` must name one of them. */
export const TRACE_FIELDS = [
  "trace",
  "id",
  "transaction",
  "timestamp",
  "transaction.duration",
  "project",
] as const;

/** API sort value for each `--sort` choice. */
export const TRACE_SORT_PARAM = { date: "-timestamp", duration: "-transaction.duration" } as const;

/** One transaction row; unknown extra columns are kept. */
export const TransactionRow = v.looseObject({
  trace: v.pipe(v.string(), v.regex(/^[0-9a-fA-F]{32}$/, "expected a 32-hex trace id")),
  id: v.nullish(v.string()),
  transaction: v.nullish(v.string()),
  timestamp: v.string(),
  "transaction.duration": v.nullish(v.number()),
  project: v.nullish(v.string()),
});
/** A validated transaction row. */
export type TransactionRow = v.InferOutput<typeof TransactionRow>;

const EventsResponse = v.object({
  data: v.array(TransactionRow),
  meta: v.optional(v.unknown()),
});

/** Options of listTraces. */
export interface ListTracesOptions {
  org: string;
  projectId: string;
  limit: number;
  sort: keyof typeof TRACE_SORT_PARAM;
  query?: string;
  /** Activity window (`7d` unless given). */
  period?: string;
  cursor?: string;
}

/** Recent transactions of one project, paging (≤ 100 per request) up to `limit`. */
export async function listTraces(
  ctx: TrackerContext,
  opts: ListTracesOptions,
): Promise<Page<TransactionRow>> {
  return fetchLimited(opts.limit, opts.cursor, async (size, cursor) => {
    const res = await apiRequestDeferred(ctx, {
      path: `/api/0/organizations/${encodeURIComponent(opts.org)}/events/`,
      host: { org: opts.org },
      query: {
        dataset: "transactions",
        field: TRACE_FIELDS,
        project: opts.projectId,
        query: opts.query,
        sort: TRACE_SORT_PARAM[opts.sort],
        per_page: size,
        statsPeriod: opts.period ?? TRACE_LIST_PERIOD,
        cursor,
      },
      schema: EventsResponse,
    });
    return { rows: () => res.parse().data, nextCursor: res.nextCursor };
  });
}

const TraceError = v.looseObject({
  event_id: v.nullish(v.string()),
  issue_id: v.nullish(v.union([v.number(), v.string()])),
  level: v.nullish(v.string()),
  title: v.nullish(v.string()),
});

/** One item of the trace endpoint's answer (a span or transaction), with nested children. */
export interface RawTraceItem {
  span_id?: string | null;
  event_id?: string | null;
  parent_span_id?: string | null;
  op?: string | null;
  name?: string | null;
  description?: string | null;
  transaction?: string | null;
  is_transaction?: boolean | null;
  project_slug?: string | null;
  project_id?: number | string | null;
  start_timestamp?: number | null;
  end_timestamp?: number | null;
  timestamp?: number | null;
  duration?: number | null;
  errors?: v.InferOutput<typeof TraceError>[] | null;
  children?: RawTraceItem[] | null;
  [key: string]: unknown;
}

const TraceItem: v.GenericSchema<unknown, RawTraceItem> = v.looseObject({
  span_id: v.nullish(v.string()),
  event_id: v.nullish(v.string()),
  parent_span_id: v.nullish(v.string()),
  op: v.nullish(v.string()),
  name: v.nullish(v.string()),
  description: v.nullish(v.string()),
  transaction: v.nullish(v.string()),
  is_transaction: v.nullish(v.boolean()),
  project_slug: v.nullish(v.string()),
  project_id: v.nullish(v.union([v.number(), v.string()])),
  start_timestamp: v.nullish(v.number()),
  // Older servers send `timestamp` instead of `end_timestamp`.
  end_timestamp: v.nullish(v.number()),
  timestamp: v.nullish(v.number()),
  duration: v.nullish(v.number()),
  errors: v.nullish(v.array(TraceError)),
  children: v.nullish(v.array(v.lazy(() => TraceItem))),
});

/** The root items of a trace; empty when the trace is unknown (the API answers 200 []). */
export async function getTraceItems(
  ctx: TrackerContext,
  org: string,
  traceId: string,
): Promise<RawTraceItem[]> {
  const res = await apiRequest(ctx, {
    path: `/api/0/organizations/${encodeURIComponent(org)}/trace/${traceId}/`,
    host: { org },
    query: { limit: TRACE_VIEW_SPAN_LIMIT, project: -1, statsPeriod: TRACE_VIEW_PERIOD },
    schema: v.array(TraceItem),
  });
  return res.data;
}
