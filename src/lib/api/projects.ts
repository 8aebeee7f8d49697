import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { parseRow, useCache } from "../db/access.ts";
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

const CacheRow = v.object({
  project_id: v.nullable(v.string()),
  name: v.nullable(v.string()),
  platform: v.nullable(v.string()),
});

/** A project's cached numeric id, if known. */
export function cachedProjectId(ctx: TrackerContext, org: string, project: string): string | undefined {
  return useCache(
    ctx,
    (db) => {
      const row = db
        .query(
          "SELECT project_id, name, platform FROM project_cache WHERE base_url = ? AND org = ? AND project = ?",
        )
        .get(ctx.settings.baseUrl, org, project);
      return row ? (parseRow(CacheRow, row, "project_cache").project_id ?? undefined) : undefined;
    },
    undefined,
  );
}

/** Caches projects of an org (slug → numeric id). */
export function cacheProjects(ctx: TrackerContext, org: string, projects: readonly Project[]): void {
  useCache(
    ctx,
    (db) => {
      const q = db.query(
        "INSERT OR REPLACE INTO project_cache (base_url, org, project, project_id, name, platform, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      );
      db.transaction(() => {
        for (const p of projects)
          q.run(ctx.settings.baseUrl, org, p.slug, p.id, p.name, p.platform ?? null, ctx.now());
      })();
    },
    undefined,
    true,
  );
}

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

/**
 * A project's numeric id (cache first, unless `fresh`). An unknown org or project is a
 * ResolutionError naming which one, with "did you mean" when a slug differs only in case.
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
  const { withSlugHint } = await import("../resolve/target.ts");
  return (await withSlugHint(ctx, { org, project }, () => getProject(ctx, org, project))).id;
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
  public: v.optional(v.string()),
  dsn: v.optional(v.looseObject({ public: v.optional(v.string()) })),
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
  return keys.find((k) => k.isActive !== false && k.dsn?.public)?.dsn?.public;
}
