/**
 * The logs of one trace (`trace logs`, and under the span tree of `trace view --logs`): piped and
 * in markdown one row per log in time order; on a terminal grouped under their spans.
 */
import type { LogItem } from "../log/items.ts";
import { severityMarker } from "../log/items.ts";
import type { CellContext, ListView } from "../view/list.ts";
import { formatLogLine } from "./log-table.ts";
import { oneLine } from "./one-line.ts";
import { truncate } from "./table.ts";
import { isoSeconds } from "./time.ts";

/** What a run of the view knows beyond the logs: a label for each span of the trace it has. */
export interface TraceLogsOptions {
  spanLabel?: (spanId: string) => string | undefined;
}

/**
 * The logs grouped under their spans in time order (a span's group where its first log falls;
 * logs without a span in a group of their own), each group headed by the span and its label.
 */
function spanGroups(items: readonly LogItem[], o: TraceLogsOptions, c: CellContext): string[] {
  const width = c.width ?? 80;
  const groups = new Map<string, LogItem[]>();
  for (const item of items) {
    const key = item.spanId ?? "";
    const list = groups.get(key);
    if (list) list.push(item);
    else groups.set(key, [item]);
  }
  const out: string[] = [];
  const indent = Math.max(20, width - 2);
  for (const [spanId, logs] of groups) {
    const label = spanId ? o.spanLabel?.(spanId) : undefined;
    const head = spanId ? `span ${spanId}${label ? `  ${oneLine(label)}` : ""}` : "no span";
    out.push(truncate(head, width));
    for (const item of logs) out.push(`  ${formatLogLine(item, { width: indent, noTrace: true })}`);
  }
  return out;
}

/** `trace logs`: time, severity, span id, message and log id of each log, oldest first. */
export const TRACE_LOGS_VIEW: ListView<LogItem, TraceLogsOptions> = {
  name: "trace logs",
  id: "id",
  document: (i) => i,
  columns: () => [
    { header: "time", cell: (i) => isoSeconds(i.timestamp) },
    { header: "severity", cell: (i) => severityMarker(i.severity, i.severityNumber) },
    { header: "span", cell: (i) => i.spanId ?? "-" },
    { header: "message", flex: true, cell: (i) => oneLine(i.message) },
    { header: "id", cell: (i) => i.id },
  ],
  terminal: spanGroups,
};
