import type { TrackerContext } from "../../context.ts";
import { repairSchema } from "../../lib/db/index.ts";
import { describeDbError } from "../../lib/db/index.ts";
import type { GlobalFlags } from "../../lib/flags.ts";
import { writeJson, writeLines } from "../../lib/output.ts";
import { dbPath } from "../../lib/paths.ts";

/** `tracker cli fix`: creates missing tables and columns and reports what changed. */
export default async function cliFix(this: TrackerContext, flags: GlobalFlags): Promise<void> {
  const db = this.store.open();
  if (this.store.readOnly)
    throw describeDbError(new Error("attempt to write a readonly database"), dbPath(this.configDir));
  let report: ReturnType<typeof repairSchema>;
  try {
    report = repairSchema(db);
  } catch (err) {
    throw describeDbError(err, dbPath(this.configDir));
  }
  const integrity =
    (db.query("PRAGMA quick_check").get() as { quick_check: string } | null)?.quick_check ?? "unknown";
  const changed = report.createdTables.length + report.addedColumns.length > 0;
  if (flags.json) return writeJson(this, { path: dbPath(this.configDir), changed, ...report, integrity });
  if (!changed) {
    writeLines(
      this,
      `Nothing to repair: the local database at ${dbPath(this.configDir)} is up to date (integrity: ${integrity}).`,
    );
    return;
  }
  const lines = [`Repaired the local database at ${dbPath(this.configDir)}:`];
  for (const t of report.createdTables) lines.push(`  created table ${t}`);
  for (const c of report.addedColumns) lines.push(`  added column ${c}`);
  writeLines(this, lines);
}
