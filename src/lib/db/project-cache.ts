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

/**
 * Caches projects of an org (slug → numeric id); a project's id has one slug, so an old slug of a
 * renamed project goes. Linear in the rows: the org's cached rows are read once and stale slugs
 * deleted by primary key (a per-project DELETE by id scanned the table: 40,000 projects took 147 s
 * with the write lock held), all in one short transaction.
 */
export function cacheProjects(ctx: TrackerContext, org: string, projects: readonly CachedProject[]): void {
  if (projects.length === 0) return;
  useCache(
    ctx,
    (db) => {
      const base = ctx.settings.baseUrl;
      const insert = db.query(
        "INSERT OR REPLACE INTO project_cache (base_url, org, project, project_id, name, platform, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      );
      const remove = db.query("DELETE FROM project_cache WHERE base_url = ? AND org = ? AND project = ?");
      const slugOf = new Map(projects.map((p) => [p.id, p.slug]));
      db.transaction(() => {
        const existing = db
          .query("SELECT project, project_id FROM project_cache WHERE base_url = ? AND org = ?")
          .all(base, org) as { project: unknown; project_id: unknown }[];
        for (const row of existing) {
          const fresh = typeof row.project_id === "string" ? slugOf.get(row.project_id) : undefined;
          if (fresh !== undefined && fresh !== row.project) remove.run(base, org, row.project as string);
        }
        const now = ctx.now();
        for (const p of projects) insert.run(base, org, p.slug, p.id, p.name, p.platform ?? null, now);
        // IMMEDIATE: the read above must not be a snapshot another writer can invalidate (SQLite
        // answers that upgrade with SQLITE_BUSY at once instead of waiting).
      }).immediate();
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
