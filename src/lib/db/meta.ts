/**
 * The meta table: one owner for its SQL. It holds the schema version, the target of the current
 * aliases, and facts learned about a service (`<fact>@<base URL>`); callers pass the open database
 * (they run inside their own transactions).
 */
import type { Database } from "bun:sqlite";

/** A meta value, if stored as text. */
export function readMeta(db: Database, key: string): string | undefined {
  const row = db.query("SELECT value FROM meta WHERE key = ?").get(key) as { value: unknown } | null;
  return typeof row?.value === "string" ? row.value : undefined;
}

/** Stores a meta value (replacing the previous one). */
export function writeMeta(db: Database, key: string, value: string): void {
  db.run("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", [key, value]);
}
