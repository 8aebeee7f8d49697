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

/** Rows as a table: TRACE ID (first 8), TRANSACTION, DURATION, TIMESTAMP (ISO when piped, relative on a TTY). */
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
      r.trace.slice(0, SHORT_TRACE_ID_LENGTH).toLowerCase(),
      r.transaction ?? "-",
      formatDuration(rowDurationMs(r)),
      listTime(r.timestamp, opts.nowMs, tty),
    ]),
    opts.width,
  );
}
