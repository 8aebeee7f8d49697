import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { parseRow, useCache, useDb, writeDb } from "./access.ts";

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
    // An upsert, so the default environments stay when the target changes.
    db.run(
      "INSERT INTO defaults (id, org, project, updated_at) VALUES (1, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET org = excluded.org, project = excluded.project, updated_at = excluded.updated_at",
      [d.org, d.project, ctx.now()],
    );
  });
}

/** Removes the stored defaults; true when there were some. */
export function clearDefaults(ctx: TrackerContext): boolean {
  return writeDb(ctx, (db) => db.run("DELETE FROM defaults WHERE id = 1").changes > 0);
}

const EnvironmentsRow = v.object({ environments: v.nullable(v.string()) });
const EnvironmentList = v.array(v.string());

/** The default environments (`defaults set --environment`); none when unset or the store is unreadable. */
export function readDefaultEnvironments(ctx: TrackerContext): readonly string[] {
  return useCache(
    ctx,
    (db) => {
      const row = db.query("SELECT environments FROM defaults WHERE id = 1").get();
      const text = row ? parseRow(EnvironmentsRow, row, "defaults").environments : null;
      if (text === null) return [];
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return [];
      }
      const list = v.safeParse(EnvironmentList, parsed);
      return list.success ? list.output : [];
    },
    [],
  );
}

/** Stores the default environments (an empty list clears them); the org and project stay. */
export function writeDefaultEnvironments(ctx: TrackerContext, envs: readonly string[]): void {
  writeDb(ctx, (db) => {
    db.run(
      "INSERT INTO defaults (id, environments, updated_at) VALUES (1, ?, ?) ON CONFLICT(id) DO UPDATE SET environments = excluded.environments, updated_at = excluded.updated_at",
      [envs.length === 0 ? null : JSON.stringify(envs), ctx.now()],
    );
  });
}
