/** The `trace list` view. */
import { rowDurationMs, type TransactionRow } from "../api/traces.ts";
import type { ListView } from "../view/list.ts";
import { viewLines } from "../view/list.ts";
import { formatDuration } from "./duration.ts";
import { listTime } from "./time.ts";

/** Characters of the trace id shown in tables (accepted back by `trace view`). */
export const SHORT_TRACE_ID_LENGTH = 8;

/** Options of formatTraceTable. */
export interface TraceTableOptions {
  /** Terminal width when stdout is a TTY (enables truncation and relative times); undefined when piped. */
  width?: number;
  nowMs: number;
}

/** One item of `trace list --json`: our names first, then every column the API returned. */
export interface TraceListItem {
  traceId: string;
  transaction: string | null;
  durationMs: number | null;
  timestamp: string;
  project: string;
  [field: string]: unknown;
}

/** Maps an API row to the JSON item (the project slug falls back to the listed project). */
export function toTraceListItem(row: TransactionRow, project: string): TraceListItem {
  const item: TraceListItem = {
    traceId: row.trace.toLowerCase(),
    transaction: row.transaction ?? null,
    durationMs: rowDurationMs(row),
    timestamp: row.timestamp,
    project: row.project ?? project,
  };
  for (const [k, val] of Object.entries(row)) if (!(k in item)) item[k] = val;
  return item;
}

/** A duration for scripts: plain milliseconds (`245`, `0.42`), no unit; empty when unknown. */
export function pipedDurationMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return "";
  return String(Number(ms.toFixed(3)));
}

/**
 * `trace list`: TRACE ID, TRANSACTION, DURATION, TIMESTAMP. On a terminal: the first 8
 * characters of the id, human durations and relative times; piped (and markdown): the full id,
 * milliseconds as a plain number and RFC 3339 times.
 */
export const TRACE_LIST_VIEW: ListView<TraceListItem> = {
  name: "trace list",
  id: "traceId",
  document: (i) => i,
  columns: () => [
    { header: "trace id", cell: (i, c) => (c.tty ? i.traceId.slice(0, SHORT_TRACE_ID_LENGTH) : i.traceId) },
    { header: "transaction", flex: true, cell: (i) => i.transaction ?? "-" },
    {
      header: "duration",
      align: "right",
      cell: (i, c) => (c.tty ? formatDuration(i.durationMs) : pipedDurationMs(i.durationMs)),
    },
    { header: "timestamp", cell: (i, c) => listTime(i.timestamp, c.now, c.tty) },
  ],
};

/** The `trace list` view's lines for these rows: a table on a terminal of `width`, else TSV rows. */
export function formatTraceTable(rows: readonly TransactionRow[], opts: TraceTableOptions): string[] {
  const items = rows.map((r) => toTraceListItem(r, ""));
  return viewLines(TRACE_LIST_VIEW, items, undefined, {
    tty: opts.width !== undefined,
    now: opts.nowMs,
    width: opts.width,
  });
}
