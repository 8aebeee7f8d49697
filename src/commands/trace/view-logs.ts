import type { TrackerContext } from "../../context.ts";
import { getTraceItems } from "../../lib/api/traces.ts";
import { ApiError, ResolutionError } from "../../lib/errors.ts";
import { formatTraceLogs } from "../../lib/format/log-table.ts";
import { formatTraceTree } from "../../lib/format/trace-tree.ts";
import { LOG_LIMIT } from "../../lib/log/options.ts";
import { fetchTraceLogs, resolveTraceOrg } from "../../lib/log/trace-logs.ts";
import { writeJson, writeList } from "../../lib/output.ts";
import { traceDocument } from "../../lib/trace/document.ts";
import { walkSpans } from "../../lib/trace/span-tree.ts";
import { looksLikeTraceRef } from "../../lib/trace/trace-id.ts";
import { TRACE_VIEW_PERIOD } from "../../lib/trace/windows.ts";
import type { TraceViewFlags } from "./index.ts";
import traceView from "./view.ts";
import { quoteWord } from "../../lib/shell-quote.ts";

const COMMAND = "tracker trace view";

/**
 * `tracker trace view`: without --logs (or with --web) it is view.ts; with --logs the span tree
 * and the trace's logs are fetched at once (two requests, one round trip), and the logs follow
 * the tree grouped under the spans they were written in (`"logs"` in the JSON document).
 */
export default async function traceViewWithLogs(
  this: TrackerContext,
  flags: TraceViewFlags,
  first: string,
  second?: string,
): Promise<void> {
  if (!flags.logs || flags.web) return traceView.call(this, flags, first, second);
  const swap = second !== undefined && !looksLikeTraceRef(first) && looksLikeTraceRef(second);
  const [rawId, target] = swap ? [second, first] : [first, second];
  const { traceId, org } = await resolveTraceOrg(this, rawId, target, {
    command: COMMAND,
    fresh: flags.fresh,
  });
  const notFound = (why: string) =>
    new ResolutionError(`Trace ${traceId}`, `was not found in organization '${org}'`, why, [
      `${COMMAND} ${traceId} <other-org>`,
      `tracker trace list ${quoteWord(`${org}/`)}<project>`,
    ]);
  const [items, logs] = await Promise.all([
    getTraceItems(this, org, traceId).catch((err) => {
      if (err instanceof ApiError && err.status === 404)
        throw notFound("The organization does not exist or is not visible to this token.");
      throw err;
    }),
    fetchTraceLogs(this, org, traceId, LOG_LIMIT.fallback),
  ]);
  if (items.length === 0 && logs.data.length === 0) {
    throw notFound(
      `It does not exist there, belongs to another organization, or is older than ${TRACE_VIEW_PERIOD}.`,
    );
  }
  const { roots, errors, summary, json, depth } = traceDocument(traceId, org, items);
  if (flags.json) return writeJson(this, json({ logs: logs.data }), { depth });
  const labels = new Map<string, string>();
  walkSpans(roots, (node) => {
    labels.set(node.spanId, [node.op, node.description].filter(Boolean).join(" — "));
  });
  const width = this.isStdoutTTY ? this.terminalWidth : undefined;
  const tree =
    items.length > 0
      ? formatTraceTree({ traceId, org, roots, errors, summary }, { width, color: this.color })
      : [];
  const more = logs.nextCursor
    ? ` (the first ${logs.data.length}; all: tracker trace logs ${traceId} ${org} -n ${LOG_LIMIT.max})`
    : "";
  const logLines =
    logs.data.length === 0
      ? ["Logs: none"]
      : [
          `Logs (${logs.data.length})${more}:`,
          ...formatTraceLogs(logs.data, (id) => labels.get(id), { width }),
        ];
  await writeList(this, [...tree, ...(tree.length > 0 ? [""] : []), ...logLines]);
}
