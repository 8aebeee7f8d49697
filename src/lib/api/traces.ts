/**
 * Trace endpoints (API.md section 7): recent transactions from the Discover events query, and the
 * span tree of one trace.
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { ApiError } from "../errors.ts";
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

/** One item's own fields; its children are checked one by one (see validateTraceItems). */
const TraceItemFields = v.looseObject({
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
  children: v.nullish(v.array(v.unknown())),
});

/**
 * Validates the nested items with an explicit stack rather than a recursive schema: a trace may
 * nest tens of thousands of spans, deeper than the call stack allows. Throws an ApiError naming
 * the first bad field's path.
 */
export function validateTraceItems(raw: unknown, endpoint: string): RawTraceItem[] {
  if (!Array.isArray(raw)) throw badTrace(endpoint, "", "expected an array");
  const roots: RawTraceItem[] = [];
  const stack: { value: unknown; into: RawTraceItem[]; path: string }[] = [];
  for (let i = raw.length - 1; i >= 0; i--) stack.push({ value: raw[i], into: roots, path: String(i) });
  // Children are pushed in reverse so each parent's list fills in its original order.
  while (stack.length > 0) {
    const { value, into, path } = stack.pop() as (typeof stack)[number];
    const r = v.safeParse(TraceItemFields, value);
    if (!r.success) {
      const issue = r.issues[0];
      const at = issue ? v.getDotPath(issue) : null;
      throw badTrace(endpoint, at ? `${path}.${at}` : path, issue?.message ?? "invalid shape");
    }
    const kids = r.output.children ?? [];
    const item: RawTraceItem = { ...r.output, children: [] };
    into.push(item);
    for (let i = kids.length - 1; i >= 0; i--) {
      stack.push({ value: kids[i], into: item.children as RawTraceItem[], path: `${path}.children.${i}` });
    }
  }
  return roots;
}

function badTrace(endpoint: string, path: string, message: string): ApiError {
  return new ApiError({
    status: 200,
    endpoint,
    message: `Unexpected response from ${endpoint}`,
    detail: `${path ? `${path}: ` : ""}${message}`,
    hint: "The service answered with data tracker does not understand. Check TRACKER_URL, or upgrade tracker.",
  });
}

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
    schema: v.unknown(),
  });
  return validateTraceItems(res.data, `GET /api/0/organizations/${org}/trace/${traceId}/`);
}
