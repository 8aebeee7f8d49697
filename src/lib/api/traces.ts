/**
 * Trace endpoints (API.md section 7): recent transactions from the Discover events query, and the
 * span tree of one trace.
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { ApiError } from "../errors.ts";
import { apiRequest, apiRequestDeferred } from "../http/client.ts";
import { isSearchQueryError } from "../http/errors.ts";
import { fetchLimited, type Page } from "../http/paginate.ts";
import { TRACE_LIST_PERIOD, TRACE_VIEW_PERIOD } from "../trace/windows.ts";
import { type Window, windowQuery } from "../time-window.ts";

/** Most spans asked for in one trace (the reference's value). */
export const TRACE_VIEW_SPAN_LIMIT = 10_000;

/** Deepest JSON a trace's span tree may nest (a 100,000-span chain). */
export const TRACE_MAX_DEPTH = 200_000;

/**
 * The two request forms of `trace list` (API.md 7.1): the documented `spans` dataset filtered to
 * transaction spans, and the legacy `transactions` dataset that older servers need.
 */
export const TRACE_DATASETS = {
  spans: {
    fields: ["trace", "id", "transaction", "timestamp", "span.duration", "project"],
    sort: { date: "-timestamp", duration: "-span.duration" },
    query: "is_transaction:true",
  },
  transactions: {
    fields: ["trace", "id", "transaction", "timestamp", "transaction.duration", "project"],
    sort: { date: "-timestamp", duration: "-transaction.duration" },
    query: undefined,
  },
} as const;
/** A `trace list` dataset. */
export type TraceDataset = keyof typeof TRACE_DATASETS;

/** The service fact remembering that a server needs the legacy dataset. */
export const TRACE_DATASET_FACT = "trace_list_dataset";

/** One transaction row; unknown extra columns are kept. */
export const TransactionRow = v.looseObject({
  trace: v.pipe(v.string(), v.regex(/^[0-9a-fA-F]{32}$/, "expected a 32-hex trace id")),
  id: v.nullish(v.string()),
  transaction: v.nullish(v.string()),
  timestamp: v.string(),
  "span.duration": v.nullish(v.number()),
  "transaction.duration": v.nullish(v.number()),
  project: v.nullish(v.string()),
});
/** A validated transaction row. */
export type TransactionRow = v.InferOutput<typeof TransactionRow>;

/** A row's duration in milliseconds, from whichever dataset answered. */
export function rowDurationMs(row: TransactionRow): number | null {
  return row["span.duration"] ?? row["transaction.duration"] ?? null;
}

const EventsResponse = v.object({
  data: v.array(TransactionRow),
  meta: v.optional(v.unknown()),
});

/** Options of listTraces. */
export interface ListTracesOptions {
  org: string;
  /** Numeric project ids; `["-1"]` for every project of the organization. */
  projectIds: readonly string[];
  limit: number;
  sort: "date" | "duration";
  query?: string;
  /** Activity window (`7d` unless given). */
  period?: Window;
  cursor?: string;
}

/**
 * Recent transactions of one project, paging (≤ 100 per request) up to `limit`. The documented
 * `spans` form is asked first; a 400 to it is asked again in the legacy `transactions` form, and
 * when that works without a user query the service is remembered as a legacy one.
 */
export async function listTraces(
  ctx: TrackerContext,
  opts: ListTracesOptions,
): Promise<Page<TransactionRow>> {
  const { getServiceFact, setServiceFact } = await import("../db/service-facts.ts");
  let dataset: TraceDataset =
    getServiceFact(ctx, TRACE_DATASET_FACT) === "transactions" ? "transactions" : "spans";
  const ask = async (size: number, cursor: string | undefined, form: TraceDataset) => {
    const d = TRACE_DATASETS[form];
    const query = [d.query, opts.query].filter((q) => q !== undefined && q !== "").join(" ");
    return apiRequestDeferred(ctx, {
      path: `/api/0/organizations/${encodeURIComponent(opts.org)}/events/`,
      host: { org: opts.org },
      query: {
        dataset: form,
        field: d.fields,
        project: [...opts.projectIds],
        query: query === "" ? undefined : query,
        sort: d.sort[opts.sort],
        per_page: size,
        ...windowQuery(opts.period ?? TRACE_LIST_PERIOD),
        cursor,
      },
      schema: EventsResponse,
    });
  };
  return fetchLimited(opts.limit, opts.cursor, async (size, cursor) => {
    let res: Awaited<ReturnType<typeof ask>>;
    try {
      res = await ask(size, cursor, dataset);
    } catch (err) {
      // A query the server cannot parse is the user's to fix; another 400 may be the dataset.
      const datasetRefused =
        dataset === "spans" && err instanceof ApiError && err.status === 400 && !isSearchQueryError(err);
      if (!datasetRefused) throw err;
      ctx.log.debug("trace list: the spans dataset was refused (400); asking the transactions dataset");
      try {
        res = await ask(size, cursor, "transactions");
      } catch (legacyErr) {
        // A query the legacy form could parse is reported as such; otherwise the first answer
        // (to the documented form) is the one that explains the problem.
        throw isSearchQueryError(legacyErr) ? legacyErr : err;
      }
      dataset = "transactions";
      if (!opts.query) setServiceFact(ctx, TRACE_DATASET_FACT, "transactions");
    }
    return { rows: () => res.parse().data, nextCursor: res.nextCursor };
  });
}

const TraceError = v.looseObject({
  event_id: v.nullish(v.string()),
  event_type: v.nullish(v.string()),
  issue_id: v.nullish(v.union([v.number(), v.string()])),
  short_id: v.nullish(v.string()),
  level: v.nullish(v.string()),
  description: v.nullish(v.string()),
  title: v.nullish(v.string()),
  culprit: v.nullish(v.string()),
  project_slug: v.nullish(v.string()),
  project_id: v.nullish(v.union([v.number(), v.string()])),
  start_timestamp: v.nullish(v.number()),
});
/** A validated trace error. */
export type RawTraceError = v.InferOutput<typeof TraceError>;

/** One item of the trace endpoint's answer (a span or transaction), with nested children. */
export interface RawTraceItem {
  span_id?: string | null;
  event_id?: string | null;
  /** "span", "error", "occurrence" or "uptime_check" on current servers. */
  event_type?: string | null;
  issue_id?: number | string | null;
  short_id?: string | null;
  level?: string | null;
  title?: string | null;
  culprit?: string | null;
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
  errors?: RawTraceError[] | null;
  occurrences?: unknown[] | null;
  children?: RawTraceItem[] | null;
  [key: string]: unknown;
}

/** One item's own fields; its children are checked one by one (see validateTraceItems). */
const TraceItemFields = v.looseObject({
  span_id: v.nullish(v.string()),
  event_id: v.nullish(v.string()),
  event_type: v.nullish(v.string()),
  // Present when the root item is itself an error (its span is not in the trace).
  issue_id: v.nullish(v.union([v.number(), v.string()])),
  short_id: v.nullish(v.string()),
  level: v.nullish(v.string()),
  title: v.nullish(v.string()),
  culprit: v.nullish(v.string()),
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
  occurrences: v.nullish(v.array(v.unknown())),
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
    // A span tree nests two levels per span, as deep as the trace; its views walk it without
    // recursion (test/e2e/hostile-traces.test.ts: 20,000 levels of spans).
    maxDepth: TRACE_MAX_DEPTH,
  });
  return validateTraceItems(res.data, `GET /api/0/organizations/${org}/trace/${traceId}/`);
}
