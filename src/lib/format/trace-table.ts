/** The human table of `trace list`. */
import { rowDurationMs, type TransactionRow } from "../api/traces.ts";
import { formatDuration } from "./duration.ts";
import { listTime } from "./time.ts";
import { formatTable } from "./table.ts";

/** Characters of the trace id shown in tables (accepted back by `trace view`). */
export const SHORT_TRACE_ID_LENGTH = 8;

/** Options of formatTraceTable. */
export interface TraceTableOptions {
  /** Terminal width when stdout is a TTY (enables truncation and relative times); undefined when piped. */
  width?: number;
  nowMs: number;
}

/** A duration for scripts: plain milliseconds (`245`, `0.42`), no unit; empty when unknown. */
export function pipedDurationMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return "";
  return String(Number(ms.toFixed(3)));
}

/**
 * Rows as a table: TRACE ID, TRANSACTION, DURATION, TIMESTAMP. On a terminal: the first 8
 * characters of the id, human durations and relative times; piped: the full id, milliseconds as a
 * plain number and RFC 3339 times.
 */
export function formatTraceTable(rows: readonly TransactionRow[], opts: TraceTableOptions): string[] {
  const tty = opts.width !== undefined;
  return formatTable(
    [
      { header: "trace id" },
      { header: "transaction", flex: true },
      { header: "duration", align: "right" },
      { header: "timestamp" },
    ],
    rows.map((r) => [
      tty ? r.trace.slice(0, SHORT_TRACE_ID_LENGTH).toLowerCase() : r.trace.toLowerCase(),
      r.transaction ?? "-",
      tty ? formatDuration(rowDurationMs(r)) : pipedDurationMs(rowDurationMs(r)),
      listTime(r.timestamp, opts.nowMs, tty),
    ]),
    opts.width,
  );
}
