import type { TrackerContext } from "../../context.ts";
import { getTraceItems } from "../../lib/api/traces.ts";
import { ApiError, ResolutionError } from "../../lib/errors.ts";
import { TRACE_VIEW } from "../../lib/format/trace-view.ts";
import { LOG_LIMIT } from "../../lib/log/options.ts";
import { fetchTraceLogs, resolveTraceOrg } from "../../lib/log/trace-logs.ts";
import { writeJson, writeList } from "../../lib/output.ts";
import { docViewDocument, docViewLines } from "../../lib/view/render.ts";
import { traceDocument } from "../../lib/trace/document.ts";
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
  const screen = {
    traceId,
    org,
    roots,
    errors,
    summary,
    doc: json({ logs: logs.data }),
    tree: items.length > 0,
    logs: { data: logs.data, more: Boolean(logs.nextCursor) },
  };
  if (flags.json) return writeJson(this, docViewDocument(this, TRACE_VIEW, screen), { depth });
  await writeList(this, docViewLines(this, TRACE_VIEW, screen));
}
