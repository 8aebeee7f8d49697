/** The install_info table: how tracker was installed, recorded by `cli setup --method`. */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { parseRow, useCache, writeDb } from "./access.ts";

/** Install methods `cli setup` and `upgrade` know. */
export const INSTALL_METHODS = ["curl", "npm", "brew"] as const;
/** One of INSTALL_METHODS. */
export type InstallMethod = (typeof INSTALL_METHODS)[number];

const InstallInfoRow = v.object({
  method: v.picklist(INSTALL_METHODS),
  path: v.string(),
  version: v.nullable(v.string()),
});
/** A stored install record. */
export type InstallInfo = v.InferOutput<typeof InstallInfoRow>;

/** The stored install record, or undefined when none (or the database is unavailable). */
export function readInstallInfo(ctx: TrackerContext): InstallInfo | undefined {
  return useCache(
    ctx,
    (db) => {
      const row = db.query("SELECT method, path, version FROM install_info WHERE id = 1").get();
      if (!row || (row as { method: unknown }).method === null) return undefined;
      return parseRow(InstallInfoRow, row, "install_info");
    },
    undefined,
  );
}

/** Records how and where tracker is installed. */
export function writeInstallInfo(ctx: TrackerContext, info: InstallInfo): void {
  writeDb(ctx, (db) => {
    db.run(
      "INSERT OR REPLACE INTO install_info (id, method, path, version, updated_at) VALUES (1, ?, ?, ?, ?)",
      [info.method, info.path, info.version, ctx.now()],
    );
  });
}
