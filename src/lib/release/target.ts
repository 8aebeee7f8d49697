/**
 * Where a release command applies. Releases belong to an organization, so the commands that
 * name a version take `<org>` or `<org>/<project>` (only the org is used), else the context's
 * organization; `release list` and `release create` also need a project unless told otherwise.
 */
import type { TrackerContext } from "../../context.ts";
import { cachedProjectId } from "../db/project-cache.ts";
import { cleanInput, orgOnlyContext, parseTarget, resolveOrg, resolveOrgProject } from "../resolve/target.ts";

/** The organization of a version command: the argument's org (`<org>`, `<org>/`, `<org>/<project>`), else the context's. */
export async function resolveReleaseOrg(
  ctx: TrackerContext,
  target: string | undefined,
  command: string,
): Promise<string> {
  const text = target === undefined ? "" : cleanInput(target);
  if (text.includes("/") && !/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    const parsed = parseTarget(text);
    if (parsed.kind === "explicit" || parsed.kind === "org-all") return parsed.org;
  }
  return (await resolveOrg(ctx, text === "" ? undefined : text, { command })).org;
}

/** What `release list` lists: a whole organization, or one project (by id when known). */
export interface ListScope {
  org: string;
  project?: string;
  projectId?: string;
}

/**
 * `release list`'s scope: `<org>/` or an organization-only context lists the organization;
 * otherwise one project, with its id when the cache knows it (no request is spent on it).
 */
export async function resolveListScope(
  ctx: TrackerContext,
  target: string | undefined,
  command: string,
): Promise<ListScope> {
  const parsed = parseTarget(target);
  if (parsed.kind === "org-all") return { org: parsed.org };
  if (parsed.kind === "none") {
    const only = orgOnlyContext(ctx);
    if (only) {
      ctx.log.info(`Using organization ${only.org} (from ${only.source})`);
      return { org: only.org };
    }
  }
  const { org, project } = await resolveOrgProject(ctx, target, { command });
  const projectId = /^\d+$/.test(project) ? project : cachedProjectId(ctx, org, project);
  return { org, project, ...(projectId ? { projectId } : {}) };
}

/**
 * `release create`'s organization and projects: `--project` slugs in the argument's (or the
 * context's) organization, else the resolved target's project.
 */
export async function resolveCreateScope(
  ctx: TrackerContext,
  target: string | undefined,
  projects: readonly string[],
  command: string,
): Promise<{ org: string; projects: string[] }> {
  if (projects.length > 0) {
    return { org: await resolveReleaseOrg(ctx, target, command), projects: [...new Set(projects)] };
  }
  const r = await resolveOrgProject(ctx, target, { command });
  return { org: r.org, projects: [r.project] };
}
