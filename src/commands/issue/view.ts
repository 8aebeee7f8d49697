import type { TrackerContext } from "../../context.ts";
import { type ApiEvent, getLatestEvent } from "../../lib/api/events.ts";
import { type ApiIssue, getIssue } from "../../lib/api/issues.ts";
import { ApiError } from "../../lib/errors.ts";
import { formatIssueView, toIssueViewJson } from "../../lib/format/issue-view.ts";
import { forgetIssueRef, knownIssueRef, resolveIssue } from "../../lib/issues/resolve.ts";
import { writeJson, writeList } from "../../lib/output.ts";
import { openWeb, webPath } from "../../lib/web.ts";

const isNotFound = (err: unknown) => err instanceof ApiError && (err.status === 404 || err.status === 403);

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

/**
 * The issue and its latest event. When the organization and numeric id are known without asking
 * (an explicit `<org>/<id>`, or the same reference resolved before), both are requested at once:
 * one round trip. A cached mapping the service no longer confirms is forgotten and the reference
 * resolved afresh (one more round trip).
 */
async function issueAndEvent(
  ctx: TrackerContext,
  ref: string,
  fresh: boolean,
): Promise<{ issue: ApiIssue; event: ApiEvent | null }> {
  const known = fresh ? undefined : knownIssueRef(ctx, ref);
  if (known) {
    const [issue, event] = await Promise.allSettled([
      getIssue(ctx, known.org, known.id),
      latestOrNull(ctx, known.org, known.id),
    ]);
    // A cached short id must still name the issue it named (issues move and merge).
    const wanted = known.key?.includes("/") ? known.key.slice(known.key.indexOf("/") + 1) : undefined;
    const moved =
      issue.status === "fulfilled" && wanted !== undefined && issue.value.shortId.toUpperCase() !== wanted;
    if (issue.status === "fulfilled" && event.status === "fulfilled" && !moved) {
      return { issue: issue.value, event: event.value };
    }
    const failure =
      issue.status === "rejected" ? issue.reason : event.status === "rejected" ? event.reason : undefined;
    if (!known.key || (failure !== undefined && !isNotFound(failure))) throw failure;
    ctx.log.debug(`Cached reference ${known.key} is stale; resolving it again`);
    forgetIssueRef(ctx, known.key);
  }
  const { org, issue } = await resolveIssue(ctx, ref, { command: "tracker issue view", fresh });
  return { issue, event: await latestOrNull(ctx, org, issue.id) };
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
  const { issue, event } = await issueAndEvent(this, ref, flags.fresh);
  const view = toIssueViewJson(issue, event);
  if (flags.json) return writeJson(this, view);
  await writeList(this, formatIssueView(view, event, this.now()));
}
