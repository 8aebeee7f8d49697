import type { TrackerContext } from "../../context.ts";
import { listActivity } from "../../lib/api/activity.ts";
import { formatTable } from "../../lib/format/table.ts";
import { oneLine } from "../../lib/format/one-line.ts";
import { isoSeconds } from "../../lib/format/time.ts";
import { issueWith } from "../../lib/issue/issue-with.ts";
import { buildTimeline } from "../../lib/issue/timeline.ts";
import { writeJson, writeList } from "../../lib/output.ts";
import type { ActivityFlags } from "./incident-specs.ts";

/** `tracker issue timeline <issue>`: first/last seen, releases, deploys and activity in time order. */
export default async function issueTimeline(this: TrackerContext, flags: ActivityFlags, ref: string) {
  const { org, issue, extra } = await issueWith(
    this,
    ref,
    { command: "tracker issue timeline", fresh: flags.fresh },
    (org, id) => listActivity(this, org, id),
  );
  const timeline = await buildTimeline(this, org, issue, extra);
  if (flags.json) return writeJson(this, timeline);
  const width = this.isStdoutTTY ? this.terminalWidth : undefined;
  await writeList(
    this,
    formatTable(
      [{ header: "When" }, { header: "What" }, { header: "Who" }, { header: "Detail", flex: true }],
      timeline.data.map((e) => [isoSeconds(e.date), e.kind, oneLine(e.user ?? "-"), e.summary]),
      width,
    ),
    `Timeline of ${timeline.issue} (${timeline.project}), oldest first`,
  );
}
