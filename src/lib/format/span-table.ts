/** The human table of `span list`. */
import { formatDuration } from "./duration.ts";
import { oneLine } from "./one-line.ts";
import { formatTable } from "./table.ts";
import { listTime } from "./time.ts";
import { pipedDurationMs } from "./trace-table.ts";

/** One span row as the spans dataset returns it (the fields `span list` asks for). */
export interface SpanRow {
  id?: unknown;
  "span.op"?: unknown;
  "span.description"?: unknown;
  "span.duration"?: unknown;
  timestamp?: unknown;
  [field: string]: unknown;
}

/** Options of formatSpanTable. */
export interface SpanTableOptions {
  /** Terminal width when stdout is a TTY; undefined when piped. */
  width?: number;
  nowMs: number;
}

const text = (x: unknown): string => (typeof x === "string" ? x : x == null ? "" : String(x));
const num = (x: unknown): number | null => (typeof x === "number" && Number.isFinite(x) ? x : null);

/**
 * Rows as SPAN ID, OP, DESCRIPTION, DURATION, TIME. On a terminal: human durations and relative
 * times; piped: milliseconds as a plain number and RFC 3339 times (tab-separated, no header).
 */
export function formatSpanTable(rows: readonly SpanRow[], opts: SpanTableOptions): string[] {
  const tty = opts.width !== undefined;
  return formatTable(
    [
      { header: "span id" },
      { header: "op" },
      { header: "description", flex: true },
      { header: "duration", align: "right" },
      { header: "time" },
    ],
    rows.map((r) => [
      text(r.id),
      oneLine(text(r["span.op"])) || (tty ? "-" : ""),
      oneLine(text(r["span.description"])) || (tty ? "-" : ""),
      tty ? formatDuration(num(r["span.duration"])) : pipedDurationMs(num(r["span.duration"])),
      listTime(text(r.timestamp), opts.nowMs, tty),
    ]),
    opts.width,
  );
}
