/** The `span list` view. */
import type { ListView } from "../view/list.ts";
import { formatDuration } from "./duration.ts";
import { oneLine } from "./one-line.ts";
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

const text = (x: unknown): string => (typeof x === "string" ? x : x == null ? "" : String(x));
const num = (x: unknown): number | null => (typeof x === "number" && Number.isFinite(x) ? x : null);

/**
 * `span list`: SPAN ID, OP, DESCRIPTION, DURATION, TIME. On a terminal: human durations, relative
 * times and `-` for what is missing; piped (and markdown): milliseconds as a plain number, RFC 3339
 * times and empty cells.
 */
export const SPAN_LIST_VIEW: ListView<SpanRow> = {
  name: "span list",
  id: "id",
  document: (r) => r,
  columns: () => [
    { header: "span id", cell: (r) => text(r.id) },
    { header: "op", cell: (r, c) => oneLine(text(r["span.op"])) || (c.tty ? "-" : "") },
    {
      header: "description",
      flex: true,
      cell: (r, c) => oneLine(text(r["span.description"])) || (c.tty ? "-" : ""),
    },
    {
      header: "duration",
      align: "right",
      cell: (r, c) =>
        c.tty ? formatDuration(num(r["span.duration"])) : pipedDurationMs(num(r["span.duration"])),
    },
    { header: "time", cell: (r, c) => listTime(text(r.timestamp), c.now, c.tty) },
  ],
};
