import type { TrackerContext } from "../../context.ts";
import { TRACE_LOGS_VIEW } from "../../lib/format/trace-logs.ts";
import { LOG_LIMIT, LOG_LOOKUP_PERIOD } from "../../lib/log/options.ts";
import { fetchTraceLogs, resolveTraceOrg } from "../../lib/log/trace-logs.ts";
import { writeListTip, writeTip } from "../../lib/output.ts";
import { writeListView } from "../../lib/view/render.ts";
import type { TraceLogsFlags } from "./index.ts";
import { quoteWord } from "../../lib/shell-quote.ts";

/** `tracker trace logs`: the logs of one trace, in time order, grouped under their spans. */
export default async function traceLogs(
  this: TrackerContext,
  flags: TraceLogsFlags,
  rawId: string,
  target?: string,
): Promise<void> {
  const { traceId, org } = await resolveTraceOrg(this, rawId, target, {
    command: "tracker trace logs",
    fresh: flags.fresh,
  });
  const page = await fetchTraceLogs(this, org, traceId, flags.limit);
  const n = page.data.length;
  const run = {
    view: TRACE_LOGS_VIEW,
    items: page.data,
    options: {},
    page: { nextCursor: page.nextCursor, resumeAt: page.resumeAt },
    extra: { traceId, org },
    title: `Logs of trace ${traceId} in ${org} (${n}${page.nextCursor ? "+" : ""}, oldest first):`,
  };
  if (flags.json) return writeListView(this, true, run);
  if (n === 0) {
    writeTip(this, `No logs found for trace ${traceId} in ${org} in the last ${LOG_LOOKUP_PERIOD}.`);
    return;
  }
  await writeListView(this, false, run);
  if (page.nextCursor)
    writeListTip(this, `Showing the first ${n}; show more with -n (up to ${LOG_LIMIT.max}).`);
  writeListTip(this, `Spans by name: tracker trace view ${quoteWord(traceId)} ${quoteWord(org)} --logs`);
}
