import type { TrackerContext } from "../../context.ts";
import { type ApiEvent, getLatestEvent } from "../../lib/api/events.ts";
import { ApiError } from "../../lib/errors.ts";
import { formatIssueView, toIssueViewJson } from "../../lib/format/issue-view.ts";
import { issueWith } from "../../lib/issues/issue-with.ts";
import { knownIssueRef, resolveIssue } from "../../lib/issues/resolve.ts";
import { writeJson, writeList } from "../../lib/output.ts";
import { openWeb, webPath } from "../../lib/web.ts";

async function resolveIssueId(ctx: TrackerContext, ref: string, fresh: boolean) {
  const { org, issue } = await resolveIssue(ctx, ref, { command: "tracker issue view", fresh });
  return { org, id: issue.id };
}

/** The latest event, or null for an issue whose events were all deleted or expired. */
async function latestOrNull(ctx: TrackerContext, org: string, id: string): Promise<ApiEvent | null> {
  try {
    return await getLatestEvent(ctx, org, id);
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) throw err;
    ctx.log.debug(`Issue ${id} has no latest event`);
    return null;
  }
}

/** `tracker issue view <issue>`: the issue, its tags and its latest event; `--web` opens its page. */
export default async function issueView(
  this: TrackerContext,
  flags: { json: boolean; fresh: boolean; web: boolean },
  ref: string,
): Promise<void> {
  if (flags.web) {
    // A reference resolved before needs no request at all; otherwise resolving is the only one.
    const known = flags.fresh ? undefined : knownIssueRef(this, ref);
    const { org, id } = known ?? (await resolveIssueId(this, ref, flags.fresh));
    return openWeb(this, org, webPath.issue(id), flags.json);
  }
  const {
    org,
    issue,
    extra: event,
  } = await issueWith(this, ref, { command: "tracker issue view", fresh: flags.fresh }, (org, id) =>
    latestOrNull(this, org, id),
  );
  const view = toIssueViewJson(issue, event, org);
  if (flags.json) return writeJson(this, view);
  await writeList(this, formatIssueView(view, this.now()));
}
