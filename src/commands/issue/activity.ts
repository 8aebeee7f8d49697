import type { TrackerContext } from "../../context.ts";
import { listActivity } from "../../lib/api/activity.ts";
import { formatActivityTable, toActivityRows } from "../../lib/format/activity.ts";
import { issueWith } from "../../lib/issue/issue-with.ts";
import { writeJson, writeList, writeTip } from "../../lib/output.ts";
import type { ActivityFlags } from "./incident-specs.ts";

/** `tracker issue activity <issue>`: notes, status changes, assignments, regressions, merges, links. */
export default async function issueActivity(this: TrackerContext, flags: ActivityFlags, ref: string) {
  const { issue, extra } = await issueWith(
    this,
    ref,
    { command: "tracker issue activity", fresh: flags.fresh },
    (org, id) => listActivity(this, org, id),
  );
  const rows = toActivityRows(extra);
  if (flags.json) return writeJson(this, { issue: issue.shortId, data: rows });
  if (rows.length === 0) return writeTip(this, `${issue.shortId} has no activity yet.`);
  await writeList(
    this,
    formatActivityTable(rows, {
      width: this.isStdoutTTY ? this.terminalWidth : undefined,
      nowMs: this.now(),
    }),
    `Activity of ${issue.shortId} (newest first)`,
  );
}
