import type { TrackerContext } from "../../context.ts";
import { type ApiEvent, getLatestEvent } from "../../lib/api/events.ts";
import { FAN_OUT_CONCURRENCY, settleLimit } from "../../lib/concurrency.ts";
import { ApiError, ValidationError } from "../../lib/errors.ts";
import { ISSUE_VIEW, type IssueViewDoc, toIssueViewJson } from "../../lib/format/issue-view.ts";
import { issueWith } from "../../lib/issue/issue-with.ts";
import { knownIssueRef, resolveIssue } from "../../lib/issue/resolve.ts";
import { readLinks, readViewExtras } from "../../lib/issue/view-extras.ts";
import { writeDocView } from "../../lib/view/render.ts";
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

/** One issue's view document: the issue, its latest event and what happened around it. */
async function viewOne(ctx: TrackerContext, ref: string, fresh: boolean): Promise<IssueViewDoc> {
  const { org, issue, extra } = await issueWith(
    ctx,
    ref,
    { command: "tracker issue view", fresh },
    (org, id) => Promise.all([latestOrNull(ctx, org, id), readLinks(ctx, org, id)]),
  );
  const [event, links] = extra;
  const more = await readViewExtras(ctx, org, issue, event, links);
  return { ...toIssueViewJson(more.issue, event, org), ...more.extras };
}

/**
 * `tracker issue view <issue>…`: each issue, its tags, latest event, suspect commits, first
 * release with its deploys, linked tickets and last notes, in the given order; `--web` opens a page.
 */
export default async function issueView(
  this: TrackerContext,
  flags: { json: boolean; fresh: boolean; web: boolean },
  ...refs: string[]
): Promise<void> {
  if (flags.web) {
    if (refs.length !== 1) throw new ValidationError("--web opens one issue; name only one.", "web");
    const ref = refs[0] as string;
    // A reference resolved before needs no request at all; otherwise resolving is the only one.
    const known = flags.fresh ? undefined : knownIssueRef(this, ref);
    const { org, id } = known ?? (await resolveIssueId(this, ref, flags.fresh));
    return openWeb(this, org, webPath.issue(id), flags.json);
  }
  if (refs.length === 1) {
    const view = await viewOne(this, refs[0] as string, flags.fresh);
    return writeDocView(this, flags.json, ISSUE_VIEW, view);
  }
  const results = await settleLimit(refs, FAN_OUT_CONCURRENCY, (ref) => viewOne(this, ref, flags.fresh));
  const views = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
  const failed = results.flatMap((r, i) =>
    r.status === "rejected" ? [{ ref: refs[i], err: r.reason }] : [],
  );
  // Nothing found: the first error alone, as for one issue.
  if (views.length === 0 && failed[0]) throw failed[0].err;
  if (flags.json || views.length > 0) await writeDocView(this, flags.json, ISSUE_VIEW, views);
  for (const f of failed.slice(1))
    this.log.warn(`${f.ref}: ${f.err instanceof Error ? f.err.message : String(f.err)}`);
  if (failed[0]) throw failed[0].err;
}
