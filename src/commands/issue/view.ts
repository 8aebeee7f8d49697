import type { TrackerContext } from "../../context.ts";
import { type ApiEvent, getLatestEvent } from "../../lib/api/events.ts";
import { ApiError } from "../../lib/errors.ts";
import { formatIssueView, toIssueViewJson } from "../../lib/format/issue-view.ts";
import { resolveIssue } from "../../lib/issues/resolve.ts";
import { writeJson, writeLines } from "../../lib/output.ts";

/** `tracker issue view <issue>`: the issue, its tags and its latest event. */
export default async function issueView(
  this: TrackerContext,
  flags: { json: boolean; fresh: boolean },
  ref: string,
): Promise<void> {
  const { org, issue } = await resolveIssue(this, ref, { command: "tracker issue view", fresh: flags.fresh });
  let event: ApiEvent | null = null;
  try {
    event = await getLatestEvent(this, org, issue.id);
  } catch (err) {
    // An issue whose events were all deleted or expired has no latest event; show the issue anyway.
    if (!(err instanceof ApiError && err.status === 404)) throw err;
    this.log.debug(`Issue ${issue.id} has no latest event`);
  }
  const view = toIssueViewJson(issue, event);
  if (flags.json) return writeJson(this, view);
  writeLines(this, formatIssueView(view, event, this.now()));
}
