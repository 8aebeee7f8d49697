/** The project_cache table: project slug → numeric id, name and platform, per service URL and org. */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { parseRow, useCache } from "./access.ts";

/** What is cached of a project. */
export interface CachedProject {
  slug: string;
  id: string;
  name: string;
  platform?: string | null;
}

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

/** Caches projects of an org (slug → numeric id); a project's id has one slug, so an old slug of a renamed project goes. */
export function cacheProjects(ctx: TrackerContext, org: string, projects: readonly CachedProject[]): void {
  useCache(
    ctx,
    (db) => {
      const q = db.query(
        "INSERT OR REPLACE INTO project_cache (base_url, org, project, project_id, name, platform, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      );
      const renamed = db.query(
        "DELETE FROM project_cache WHERE base_url = ? AND org = ? AND project_id = ? AND project <> ?",
      );
      db.transaction(() => {
        for (const p of projects) {
          renamed.run(ctx.settings.baseUrl, org, p.id, p.slug);
          q.run(ctx.settings.baseUrl, org, p.slug, p.id, p.name, p.platform ?? null, ctx.now());
        }
      })();
    },
    undefined,
    true,
  );
}

/** Every cached `org/project` of the current service URL (shell completion). */
export function cachedTargets(ctx: TrackerContext): string[] {
  return useCache(
    ctx,
    (db) =>
      (
        db
          .query("SELECT org, project FROM project_cache WHERE base_url = ? ORDER BY org, project")
          .all(ctx.settings.baseUrl) as { org: string; project: string }[]
      ).map((r) => `${r.org}/${r.project}`),
    [],
  );
}
