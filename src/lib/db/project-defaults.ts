import { sep } from "node:path";
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { parseRow, useDb, writeDb } from "./access.ts";

const Row = v.object({ root: v.string(), org: v.string(), project: v.nullable(v.string()) });
/** The stored default of one project tree (`tracker defaults set --here`). */
export type ProjectDefault = v.InferOutput<typeof Row>;

/** True when `dir` is `root` or below it. */
function inside(dir: string, root: string): boolean {
  return dir === root || dir.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** The default of the deepest stored project tree that contains `dir`, if any. */
export function readProjectDefault(ctx: TrackerContext, dir: string): ProjectDefault | undefined {
  return useDb(ctx, (db) => {
    const rows = db
      .query("SELECT root, org, project FROM project_defaults")
      .all()
      .map((r) => parseRow(Row, r, "project_defaults"))
      .filter((r) => inside(dir, r.root));
    return rows.sort((a, b) => b.root.length - a.root.length)[0];
  });
}

/** Stores the default of the tree at `d.root` (replacing an earlier one). */
export function writeProjectDefault(ctx: TrackerContext, d: ProjectDefault): void {
  writeDb(ctx, (db) => {
    db.run("INSERT OR REPLACE INTO project_defaults (root, org, project, updated_at) VALUES (?, ?, ?, ?)", [
      d.root,
      d.org,
      d.project,
      ctx.now(),
    ]);
  });
}

/** Removes the default of the tree at `root`; true when there was one. */
export function clearProjectDefault(ctx: TrackerContext, root: string): boolean {
  return writeDb(ctx, (db) => db.run("DELETE FROM project_defaults WHERE root = ?", [root]).changes > 0);
}
