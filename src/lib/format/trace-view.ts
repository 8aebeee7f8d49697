/**
 * The `trace view` document view: the trace's title, its span tree (runs of similar siblings
 * collapsed), its errors and, with `--logs`, its logs under the spans they were written in. The
 * markdown is the same lines: under `--max-chars` the deepest spans go first, spans with errors
 * and the errors themselves last.
 */
import type { LogItem } from "../log/items.ts";
import { LOG_LIMIT } from "../log/options.ts";
import { walkSpans } from "../trace/span-tree.ts";
import { type DocView, type ViewSection, tableBlock } from "../view/doc.ts";
import type { CellContext } from "../view/list.ts";
import { TRACE_LOGS_VIEW } from "./trace-logs.ts";
import {
  fitLine,
  fitTitleLines,
  SPAN_LINES_HEADER,
  spanLineEntries,
  type TraceView,
  traceErrorLines,
} from "./trace-tree.ts";

/** A trace as `trace view` shows it. */
export interface TraceScreen extends TraceView {
  /** The `--json` document (lib/trace/document.ts). */
  doc: unknown;
  /** False when the service had no span or error of the trace (only its logs were found). */
  tree: boolean;
  /** The trace's logs (`--logs`), and whether it has more than these. */
  logs?: { data: readonly LogItem[]; more: boolean };
}

/** Each span's `op — description`, for the heads of the log groups. */
function spanLabels(t: TraceScreen): Map<string, string> {
  const labels = new Map<string, string>();
  walkSpans(t.roots, (node) => {
    labels.set(node.spanId, [node.op, node.description].filter(Boolean).join(" — "));
  });
  return labels;
}

function treeSections(t: TraceScreen, c: CellContext): ViewSection[] {
  const opts = { width: c.width, color: c.color };
  const spans = spanLineEntries(t.roots);
  return [
    { block: { kind: "lines", lines: fitTitleLines(t, opts) } },
    {
      block: {
        kind: "lines",
        lines: [SPAN_LINES_HEADER, ...spans.map((l) => fitLine(l.text, opts, l.errors > 0))],
      },
      // The header stays; a span with errors goes last, the deepest spans first.
      priority: (i) => {
        const line = spans[i - 1];
        return line === undefined ? 0 : line.errors > 0 ? 1 : 2 + line.depth;
      },
      label: "span lines",
    },
    {
      heading: "Errors:",
      block: { kind: "lines", lines: traceErrorLines(t).map((l) => fitLine(l, opts, true)) },
      priority: 1,
      label: "errors",
    },
  ];
}

function logSection(t: TraceScreen, logs: NonNullable<TraceScreen["logs"]>): ViewSection {
  const n = logs.data.length;
  if (n === 0) return { block: { kind: "lines", lines: ["Logs: none"] } };
  const labels = spanLabels(t);
  const more = logs.more
    ? ` (the first ${n}; all: tracker trace logs ${t.traceId} ${t.org} -n ${LOG_LIMIT.max})`
    : "";
  return {
    heading: `Logs (${n})${more}:`,
    block: tableBlock(TRACE_LOGS_VIEW, logs.data, { spanLabel: (id) => labels.get(id) }),
    priority: (i) => 2 + i,
    label: "logs",
  };
}

/** `trace view` (and `trace view --logs`). */
export const TRACE_VIEW: DocView<TraceScreen> = {
  name: "trace view",
  id: "traceId",
  document: (t) => t.doc,
  sections: (t, c) => [...(t.tree ? treeSections(t, c) : []), ...(t.logs ? [logSection(t, t.logs)] : [])],
};
