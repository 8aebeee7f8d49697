import type { TrackerContext } from "../../context.ts";
import { listActivity } from "../../lib/api/activity.ts";
import { ISSUE_TIMELINE_VIEW, timelineTitle } from "../../lib/format/issue-timeline.ts";
import { issueWith } from "../../lib/issue/issue-with.ts";
import { buildTimeline } from "../../lib/issue/timeline.ts";
import { writeListTip } from "../../lib/output.ts";
import { writeDocView } from "../../lib/view/render.ts";
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
  if (flags.json) return writeDocView(this, true, ISSUE_TIMELINE_VIEW, timeline);
  // Piped, the entries alone are the output and the title is framing like the tips.
  if (!this.isStdoutTTY) writeListTip(this, timelineTitle(timeline));
  await writeDocView(this, false, ISSUE_TIMELINE_VIEW, timeline);
}
