import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { cacheProjects } from "../db/project-cache.ts";
import { apiRequest } from "../http/client.ts";
import { fetchAllPages } from "../http/paginate.ts";

/** A project as returned by the API (fields the CLI uses; others pass through). */
export const Project = v.looseObject({
  id: v.string(),
  slug: v.string(),
  name: v.string(),
  platform: v.optional(v.nullable(v.string())),
  dateCreated: v.optional(v.nullable(v.string())),
  isMember: v.optional(v.boolean()),
  organization: v.optional(
    v.looseObject({ id: v.optional(v.string()), slug: v.string(), name: v.optional(v.string()) }),
  ),
});
/** A validated project. */
export type Project = v.InferOutput<typeof Project>;

/** One project (slug or numeric id) of an org; caches its id. */
export async function getProject(ctx: TrackerContext, org: string, project: string): Promise<Project> {
  const res = await apiRequest(ctx, {
    path: `/api/0/projects/${encodeURIComponent(org)}/${encodeURIComponent(project)}/`,
    host: { org },
    schema: Project,
  });
  cacheProjects(ctx, org, [res.data]);
  return res.data;
}

/** Every project of an org (all pages); refreshes the project cache. */
export async function listProjects(ctx: TrackerContext, org: string): Promise<Project[]> {
  const projects = await fetchAllPages(ctx, {
    path: `/api/0/organizations/${encodeURIComponent(org)}/projects/`,
    host: { org },
    schema: v.array(Project),
  });
  cacheProjects(ctx, org, projects);
  return projects;
}

/** A client key (DSN) of a project; only the fields the CLI shows are required. */
export const ProjectKey = v.looseObject({
  id: v.string(),
  name: v.optional(v.nullable(v.string())),
  isActive: v.optional(v.boolean()),
  // Nullable in the published schema, and not needed: the DSN shown comes from `dsn.public`.
  public: v.optional(v.nullable(v.string())),
  dsn: v.optional(v.nullable(v.looseObject({ public: v.optional(v.nullable(v.string())) }))),
});
/** A validated project key. */
export type ProjectKey = v.InferOutput<typeof ProjectKey>;

/** Every client key of a project (all pages). */
export async function listProjectKeys(
  ctx: TrackerContext,
  org: string,
  project: string,
): Promise<ProjectKey[]> {
  return fetchAllPages(ctx, {
    path: `/api/0/projects/${encodeURIComponent(org)}/${encodeURIComponent(project)}/keys/`,
    host: { org },
    schema: v.array(ProjectKey),
  });
}

/** The DSN shown for a project: the public DSN of the first active key (API.md §3.5). */
export function primaryDsn(keys: readonly ProjectKey[]): string | undefined {
  return keys.find((k) => k.isActive !== false && k.dsn?.public)?.dsn?.public ?? undefined;
}
