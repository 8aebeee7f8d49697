/**
 * Log endpoints (API.md 17.1, 17.2): the events table query over `dataset=logs`. Log timestamps
 * in nanoseconds exceed 2^53, so the body is read with `timestamp_precise` kept as text.
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { ApiError } from "../errors.ts";
import { apiRequestDeferred } from "../http/client.ts";
import { fetchLimited, type Page } from "../http/paginate.ts";
import { refuseDeep, validateBody } from "../http/validate.ts";
import { type Window, windowQuery } from "../time-window.ts";

/** Columns of a listing (≤ 20 per request; `sort` must name one of them). */
export const LOG_LIST_FIELDS = [
  "sentry.item_id",
  "timestamp",
  "timestamp_precise",
  "severity",
  "severity_number",
  "message",
  "trace",
  "span_id",
  "project",
  "project.id",
] as const;

/** Columns of `log view`: every documented attribute of a log item (17 of the 20 allowed). */
export const LOG_VIEW_FIELDS = [
  ...LOG_LIST_FIELDS,
  "environment",
  "release",
  "sdk.name",
  "sdk.version",
  "code.function",
  "code.file.path",
  "code.line.number",
] as const;

const Id = v.union([v.string(), v.number()]);

/** One row of the logs dataset; columns beyond the listed ones are kept. */
export const LogRow = v.looseObject({
  "sentry.item_id": v.string(),
  timestamp: v.string(),
  timestamp_precise: v.nullish(v.union([v.string(), v.number()])),
  severity: v.nullish(v.string()),
  severity_number: v.nullish(v.number()),
  message: v.nullish(v.string()),
  trace: v.nullish(v.string()),
  span_id: v.nullish(v.string()),
  project: v.nullish(v.string()),
  "project.id": v.nullish(Id),
});
/** A validated log row. */
export type LogRow = v.InferOutput<typeof LogRow>;

const LogsResponse = v.object({ data: v.array(LogRow), meta: v.optional(v.unknown()) });

/**
 * The body as JSON with every integer `timestamp_precise` turned into a string before parsing
 * (a double would round the nanoseconds). Only a key followed by a colon is touched: inside a JSON
 * string the quotes around such a name would be escaped.
 */
export function parseLogsBody(text: string, endpoint: string, status: number): LogRow[] {
  refuseDeep(text, endpoint, status);
  const quoted = text.replace(/("timestamp_precise"\s*:\s*)(-?\d+)(?=\s*[,}\]])/g, '$1"$2"');
  let json: unknown;
  try {
    json = JSON.parse(quoted);
  } catch {
    throw new ApiError({
      status,
      endpoint,
      message: `Unexpected response from ${endpoint}: not JSON`,
      hint: "Check that TRACKER_URL points at the service's address.",
    });
  }
  return validateBody(json, LogsResponse, endpoint, status).data;
}

/** One logs query (one request unless `limit` needs several pages). */
export interface LogQuery {
  org: string;
  /** Numeric project ids; `["-1"]` for every project of the organization. */
  projectIds: readonly string[];
  query?: string;
  /** An events `sort` value: `-timestamp` (newest first) or `timestamp`. */
  sort: "-timestamp" | "timestamp";
  period: Window;
  fields?: readonly string[];
  /** Retry 5xx/connection errors inside the request (default true; follow polls retry themselves). */
  retry?: boolean;
}

async function askLogs(ctx: TrackerContext, q: LogQuery, size: number, cursor: string | undefined) {
  const path = `/api/0/organizations/${encodeURIComponent(q.org)}/events/`;
  const res = await apiRequestDeferred(ctx, {
    path,
    host: { org: q.org },
    query: {
      dataset: "logs",
      field: q.fields ?? LOG_LIST_FIELDS,
      project: q.projectIds,
      query: q.query?.trim() ? q.query.trim() : undefined,
      sort: q.sort,
      per_page: size,
      ...windowQuery(q.period),
      cursor,
    },
    schema: v.unknown(),
    ...(q.retry === false ? { retry: false } : {}),
  });
  return { rows: () => parseLogsBody(res.text, `GET ${path}`, res.status), nextCursor: res.nextCursor };
}

/** Up to `limit` logs (≤ 100 per request), resuming at `cursor`. */
export function listLogs(
  ctx: TrackerContext,
  q: LogQuery & { limit: number; cursor?: string },
): Promise<Page<LogRow>> {
  return fetchLimited(q.limit, q.cursor, (size, cursor) => askLogs(ctx, q, size, cursor));
}

/** Exactly one request for at most `size` logs (a follow poll). */
export async function fetchLogPage(ctx: TrackerContext, q: LogQuery, size: number): Promise<Page<LogRow>> {
  const page = await askLogs(ctx, q, size, undefined);
  return { data: page.rows(), nextCursor: page.nextCursor };
}
