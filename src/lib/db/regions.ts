import { existsSync } from "node:fs";
import * as v from "valibot";
import { dbPath } from "../paths.ts";
import type { TrackerContext } from "../../context.ts";
import { parseRow, useCache } from "./access.ts";

const RegionRow = v.object({
  slug: v.string(),
  org_id: v.nullable(v.string()),
  name: v.nullable(v.string()),
  region_url: v.string(),
});
/** A cached organization with its region URL. */
export type CachedOrg = v.InferOutput<typeof RegionRow>;

/** The cached region URL of an organization (by slug or numeric id), if known. */
export function getCachedOrg(ctx: TrackerContext, org: string): CachedOrg | undefined {
  return useCache(
    ctx,
    (db) => {
      const row = db
        .query(
          "SELECT slug, org_id, name, region_url FROM org_regions WHERE base_url = ? AND (slug = ? OR org_id = ?) LIMIT 1",
        )
        .get(ctx.settings.baseUrl, org, org);
      return row ? parseRow(RegionRow, row, "org_regions") : undefined;
    },
    undefined,
  );
}

/** The distinct region URLs of the cached organizations of the current service URL. */
export function cachedRegionUrls(ctx: TrackerContext): string[] {
  return useCache(
    ctx,
    (db) =>
      (
        db
          .query("SELECT DISTINCT region_url FROM org_regions WHERE base_url = ? ORDER BY region_url")
          .all(ctx.settings.baseUrl) as { region_url: string }[]
      ).map((r) => r.region_url),
    [],
  );
}

/**
 * The cached region URLs read quietly for a head start (preconnect): a database that cannot be
 * opened or read gives none and says nothing; the command reports such problems itself, in order.
 * It uses the run's own connection (a second one cost ~10 ms on every command).
 */
export function peekRegionUrls(ctx: TrackerContext): string[] {
  if (!existsSync(dbPath(ctx.configDir))) return [];
  try {
    return (
      ctx.store
        .open()
        .query("SELECT DISTINCT region_url FROM org_regions WHERE base_url = ?")
        .all(ctx.settings.baseUrl) as { region_url: string }[]
    ).map((r) => r.region_url);
  } catch {
    return [];
  }
}

/** The slugs of every cached organization of the current service URL (shell completion). */
export function cachedOrgSlugs(ctx: TrackerContext): string[] {
  return useCache(
    ctx,
    (db) =>
      (
        db
          .query("SELECT slug FROM org_regions WHERE base_url = ? ORDER BY slug")
          .all(ctx.settings.baseUrl) as {
          slug: string;
        }[]
      ).map((r) => r.slug),
    [],
  );
}

/** Forgets the cached region of an organization (by slug or numeric id). */
export function forgetOrgRegion(ctx: TrackerContext, org: string): void {
  useCache(
    ctx,
    (db) => {
      db.run("DELETE FROM org_regions WHERE base_url = ? AND (slug = ? OR org_id = ?)", [
        ctx.settings.baseUrl,
        org,
        org,
      ]);
    },
    undefined,
    true,
  );
}

/** The run-state key saying an organization's region was learned from the service in this run. */
export const regionLearnedKey = (org: string) => `region-learned:${org}`;

/** Stores organizations with their region URLs; with `replaceAll` the whole cache of this URL is refreshed. */
export function saveOrgs(ctx: TrackerContext, orgs: readonly CachedOrg[], replaceAll = false): void {
  for (const o of orgs) {
    ctx.said.add(regionLearnedKey(o.slug));
    if (o.org_id) ctx.said.add(regionLearnedKey(o.org_id));
  }
  useCache(
    ctx,
    (db) => {
      const insert = db.query(
        "INSERT OR REPLACE INTO org_regions (base_url, slug, org_id, name, region_url, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
      );
      db.transaction(() => {
        if (replaceAll) db.run("DELETE FROM org_regions WHERE base_url = ?", [ctx.settings.baseUrl]);
        for (const o of orgs)
          insert.run(ctx.settings.baseUrl, o.slug, o.org_id, o.name, o.region_url, ctx.now());
      })();
    },
    undefined,
    true,
  );
}
