/** The aliases table: short names of the projects of the latest multi-project listing. */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { parseRow, useCache } from "./access.ts";

/** A stored alias of a detected project (used as `<alias>-<suffix>` issue references). */
export interface AliasEntry {
  alias: string;
  org: string;
  project: string;
}

const AliasRow = v.object({ alias: v.string(), org: v.string(), project: v.string() });

/** Replaces the stored aliases with those of the latest multi-project listing. */
export function saveAliases(ctx: TrackerContext, entries: readonly AliasEntry[]): void {
  useCache(
    ctx,
    (db) => {
      const q = db.query(
        "INSERT OR REPLACE INTO aliases (alias, org, project, updated_at) VALUES (?, ?, ?, ?)",
      );
      db.transaction(() => {
        db.run("DELETE FROM aliases");
        for (const e of entries) q.run(e.alias, e.org, e.project, ctx.now());
      })();
    },
    undefined,
    true,
  );
}

/** The project an alias stands for, if stored (aliases are case-insensitive). */
export function lookupAlias(ctx: TrackerContext, alias: string): AliasEntry | undefined {
  return useCache(
    ctx,
    (db) => {
      const row = db
        .query("SELECT alias, org, project FROM aliases WHERE alias = ?")
        .get(alias.toLowerCase());
      return row ? parseRow(AliasRow, row, "aliases") : undefined;
    },
    undefined,
  );
}
