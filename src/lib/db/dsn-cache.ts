/**
 * DSN caches: `dsn_cache` maps a DSN to the org/project it belongs to (so a warm run makes no API
 * call); `dsn_scan_cache` keeps the DSN locations found under a project root (so a warm run does
 * not rescan, after verifying the files are unchanged). Both are best-effort caches.
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { parseRow, useCache } from "./access.ts";

const DsnRow = v.object({
  org: v.nullable(v.string()),
  project: v.nullable(v.string()),
  org_id: v.nullable(v.string()),
  project_id: v.nullable(v.string()),
});

/** The org/project a DSN resolved to. */
export interface DsnProject {
  org: string;
  project: string;
  orgId: string | null;
  projectId: string | null;
}

// A self-hosted DSN only means something for the service it was resolved against.
function key(ctx: TrackerContext, dsn: string): string {
  return `${ctx.settings.baseUrl} ${dsn}`;
}

/** The cached project of a DSN, if any. */
export function readDsnProject(ctx: TrackerContext, dsn: string): DsnProject | undefined {
  return useCache(
    ctx,
    (db) => {
      const row = db
        .query("SELECT org, project, org_id, project_id FROM dsn_cache WHERE dsn_key = ?")
        .get(key(ctx, dsn));
      if (!row) return undefined;
      const r = parseRow(DsnRow, row, "dsn_cache");
      if (!r.org || !r.project) return undefined;
      return { org: r.org, project: r.project, orgId: r.org_id, projectId: r.project_id };
    },
    undefined,
  );
}

/** Caches the project a DSN resolved to. */
export function writeDsnProject(ctx: TrackerContext, dsn: string, p: DsnProject): void {
  useCache(
    ctx,
    (db) => {
      db.run(
        "INSERT OR REPLACE INTO dsn_cache (dsn_key, org, project, org_id, project_id, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
        [key(ctx, dsn), p.org, p.project, p.orgId, p.projectId, ctx.now()],
      );
    },
    undefined,
    true,
  );
}

/** One cached DSN location (absolute path, with the stat it had when scanned). */
export const CachedLocation = v.object({
  dsn: v.string(),
  file: v.string(),
  kind: v.picklist(["env-file", "source"]),
  variable: v.optional(v.string()),
  line: v.optional(v.number()),
  mtimeMs: v.number(),
  size: v.number(),
});

/** The stored outcome of a tree scan. */
export const ScanCacheEntry = v.object({
  v: v.literal(1),
  root: v.string(),
  mode: v.string(),
  locations: v.array(CachedLocation),
  dirMtimes: v.record(v.string(), v.number()),
});
/** A validated scan cache entry. */
export type ScanCacheEntry = v.InferOutput<typeof ScanCacheEntry>;

const ScanRow = v.object({ result_json: v.string() });

/** The cached scan of a project root; a damaged entry counts as a miss. */
export function readScanCache(ctx: TrackerContext, root: string): ScanCacheEntry | undefined {
  return useCache(
    ctx,
    (db) => {
      const row = db.query("SELECT result_json FROM dsn_scan_cache WHERE root = ?").get(root);
      if (!row) return undefined;
      let json: unknown;
      try {
        json = JSON.parse(parseRow(ScanRow, row, "dsn_scan_cache").result_json);
      } catch {
        return undefined;
      }
      const r = v.safeParse(ScanCacheEntry, json);
      return r.success ? r.output : undefined;
    },
    undefined,
  );
}

/** Stores the scan of a project root. */
export function writeScanCache(ctx: TrackerContext, entry: ScanCacheEntry): void {
  useCache(
    ctx,
    (db) => {
      db.run("INSERT OR REPLACE INTO dsn_scan_cache (root, result_json, updated_at) VALUES (?, ?, ?)", [
        entry.root,
        JSON.stringify(entry),
        ctx.now(),
      ]);
    },
    undefined,
    true,
  );
}
