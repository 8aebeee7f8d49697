/** Where an explore query runs (`query`, `attribute list`): an organization and project ids. */
import type { TrackerContext } from "../../context.ts";
import { ContextError } from "../errors.ts";
import { getProjectId } from "./project-id.ts";
import { parseTarget, resolveOrg, resolveOrgProject } from "./target.ts";

/** An organization and its project ids (`-1` = all), and how to name it. */
export interface QueryScope {
  org: string;
  projects: string[];
  where: string;
}

/**
 * `<org>/<project>` and `<project>` query one project; `<org>/` every project. Without an argument
 * the context's project, else the context's organization alone (all its projects).
 */
export async function resolveQueryScope(
  ctx: TrackerContext,
  target: string | undefined,
  opts: { command: string; fresh: boolean },
): Promise<QueryScope> {
  const parsed = parseTarget(target);
  if (parsed.kind === "org-all") return { org: parsed.org, projects: ["-1"], where: `${parsed.org}/` };
  let project: { org: string; project: string };
  try {
    project = await resolveOrgProject(ctx, target, opts);
  } catch (err) {
    if (!(parsed.kind === "none" && err instanceof ContextError)) throw err;
    const { org } = await resolveOrg(ctx, undefined, opts);
    return { org, projects: ["-1"], where: `${org}/` };
  }
  const id = await getProjectId(ctx, project.org, project.project, opts.fresh);
  return { org: project.org, projects: [id], where: `${project.org}/${project.project}` };
}
