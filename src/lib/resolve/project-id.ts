/** A project's numeric id for a target: from the cache, else from the API with slug hints. */
import type { TrackerContext } from "../../context.ts";
import { getProject } from "../api/projects.ts";
import { cachedProjectId } from "../db/project-cache.ts";
import { withSlugHint } from "./target.ts";

/**
 * A project's numeric id (cache first, unless `fresh`). An unknown org or project is a
 * ResolutionError naming which one, with "did you mean" for a slug near an existing one.
 */
export async function getProjectId(
  ctx: TrackerContext,
  org: string,
  project: string,
  fresh = false,
): Promise<string> {
  if (/^\d+$/.test(project)) return project;
  if (!fresh) {
    const cached = cachedProjectId(ctx, org, project);
    if (cached) return cached;
  }
  return (await withSlugHint(ctx, { org, project }, () => getProject(ctx, org, project))).id;
}
