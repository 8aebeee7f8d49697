/**
 * The event an `explain` command looks at: an event ID (32 hex, dashed UUID form too) in the
 * target project, or an issue reference, whose latest event is taken.
 */
import type { TrackerContext } from "../../context.ts";
import { type ApiEvent, getLatestEvent, getProjectEvent } from "../api/events.ts";
import { compactHexId } from "../hex-id.ts";
import { resolveOrgProject } from "../resolve/target.ts";
import { resolveIssue } from "./resolve.ts";

/** The event `ref` names (with its organization and project); `command` is for the resolution hints. */
export async function eventOrLatest(
  ctx: TrackerContext,
  ref: string,
  target: string | undefined,
  command: string,
): Promise<{ org: string; project: string; event: ApiEvent }> {
  const id = compactHexId(ref);
  if (id !== undefined) {
    const { org, project } = await resolveOrgProject(ctx, target, { command });
    return { org, project, event: await getProjectEvent(ctx, org, project, id) };
  }
  const { org, issue } = await resolveIssue(ctx, ref, { command });
  return { org, project: issue.project.slug, event: await getLatestEvent(ctx, org, issue.id) };
}
