/** Facts about the database files on disk, for permission tests. */
import { statSync } from "node:fs";
import { dbPath } from "../../src/lib/paths.ts";

/** Permission bits of the database and its -wal/-shm files (those that exist). */
export function dbFileModes(configDir: string): number[] {
  const p = dbPath(configDir);
  return [p, `${p}-wal`, `${p}-shm`].flatMap((f) => {
    try {
      return [statSync(f).mode & 0o777];
    } catch {
      return [];
    }
  });
}
