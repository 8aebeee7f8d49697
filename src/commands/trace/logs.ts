import type { TrackerContext } from "../../context.ts";
import { formatTraceLogs } from "../../lib/format/log-table.ts";
import { LOG_LIMIT, LOG_LOOKUP_PERIOD } from "../../lib/log/options.ts";
import { fetchTraceLogs, resolveTraceOrg } from "../../lib/log/trace-logs.ts";
import { writeJson, writeList, writeListTip, writeTip } from "../../lib/output.ts";
import type { TraceLogsFlags } from "./index.ts";
import { listDocument } from "../../lib/list-page.ts";
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
  if (flags.json) {
    return writeJson(this, listDocument({ ...page, data: page.data }, { extra: { traceId, org } }));
  }
  if (page.data.length === 0) {
    writeTip(this, `No logs found for trace ${traceId} in ${org} in the last ${LOG_LOOKUP_PERIOD}.`);
    return;
  }
  const n = page.data.length;
  await writeList(
    this,
    formatTraceLogs(page.data, () => undefined, { width: this.isStdoutTTY ? this.terminalWidth : undefined }),
    `Logs of trace ${traceId} in ${org} (${n}${page.nextCursor ? "+" : ""}, oldest first):`,
  );
  if (page.nextCursor)
    writeListTip(this, `Showing the first ${n}; show more with -n (up to ${LOG_LIMIT.max}).`);
  writeListTip(this, `Spans by name: tracker trace view ${quoteWord(traceId)} ${quoteWord(org)} --logs`);
}
