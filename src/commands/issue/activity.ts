import type { TrackerContext } from "../../context.ts";
import { listActivity } from "../../lib/api/activity.ts";
import { activityTitle, ISSUE_ACTIVITY_VIEW, toActivityRows } from "../../lib/format/activity.ts";
import { issueWith } from "../../lib/issue/issue-with.ts";
import { writeListTip, writeTip } from "../../lib/output.ts";
import { writeDocView } from "../../lib/view/render.ts";
import type { ActivityFlags } from "./incident-specs.ts";

/** `tracker issue activity <issue>`: notes, status changes, assignments, regressions, merges, links. */
export default async function issueActivity(this: TrackerContext, flags: ActivityFlags, ref: string) {
  const { issue, extra } = await issueWith(
    this,
    ref,
    { command: "tracker issue activity", fresh: flags.fresh },
    (org, id) => listActivity(this, org, id),
  );
  const doc = { issue: issue.shortId, data: toActivityRows(extra) };
  if (flags.json) return writeDocView(this, true, ISSUE_ACTIVITY_VIEW, doc);
  if (doc.data.length === 0) return writeTip(this, `${issue.shortId} has no activity yet.`);
  // Piped, the rows alone are the output and the title is framing like the tips.
  if (!this.isStdoutTTY) writeListTip(this, activityTitle(doc));
  await writeDocView(this, false, ISSUE_ACTIVITY_VIEW, doc);
}
