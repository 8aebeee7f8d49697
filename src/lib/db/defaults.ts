import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { parseRow, useDb, writeDb } from "./access.ts";

const DefaultsRow = v.object({ org: v.nullable(v.string()), project: v.nullable(v.string()) });
/** Stored default organization and project. */
export type StoredDefaults = v.InferOutput<typeof DefaultsRow>;

/** The stored defaults (both null when none are set). */
export function readDefaults(ctx: TrackerContext): StoredDefaults {
  return useDb(ctx, (db) => {
    const row = db.query("SELECT org, project FROM defaults WHERE id = 1").get();
    return row ? parseRow(DefaultsRow, row, "defaults") : { org: null, project: null };
  });
}

/** Stores the defaults (project null clears the default project). */
export function writeDefaults(ctx: TrackerContext, d: StoredDefaults): void {
  writeDb(ctx, (db) => {
    db.run("INSERT OR REPLACE INTO defaults (id, org, project, updated_at) VALUES (1, ?, ?, ?)", [
      d.org,
      d.project,
      ctx.now(),
    ]);
  });
}

/** Removes the stored defaults; true when there were some. */
export function clearDefaults(ctx: TrackerContext): boolean {
  return writeDb(ctx, (db) => db.run("DELETE FROM defaults WHERE id = 1").changes > 0);
}
