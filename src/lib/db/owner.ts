/**
 * The local database holds credentials and the caches that decide where they are sent (regions,
 * logins): it must be the user's own. A config dir on a shared, writable place (TRACKER_CONFIG_DIR
 * on `/tmp` or a sticky directory) may hold a `tracker.db` another user planted, or be another
 * user's directory: tracker refuses it instead of reading or writing it. A directory of another
 * user that we cannot write either (a read-only `/`) stays usable as "no cache" (db/index.ts).
 */
import { accessSync, constants, statSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "../errors.ts";
import { DB_FILE_NAME } from "../paths.ts";

/** A config dir or database file that belongs to another user: refused, never written. */
export class ForeignStateError extends ConfigError {}

const DB_FILES = ["", "-wal", "-shm", "-journal"].map((s) => `${DB_FILE_NAME}${s}`);

function ownerOf(path: string): number | undefined {
  try {
    return statSync(path).uid;
  } catch {
    return undefined;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Throws ForeignStateError when a database file in `dir` belongs to another user, or when `dir`
 * itself does and we could write into it. Where there are no user ids (Windows) nothing is checked.
 */
export function assertOwnStateDir(dir: string): void {
  const uid = process.getuid?.();
  if (uid === undefined) return;
  const hint =
    "Set TRACKER_CONFIG_DIR to a directory only you own (it is created when missing), or unset it to use ~/.config/tracker-cli.";
  for (const name of DB_FILES) {
    const path = join(dir, name);
    const owner = ownerOf(path);
    if (owner !== undefined && owner !== uid) {
      throw new ForeignStateError(
        `The local database file ${path} belongs to another user (uid ${owner}); tracker does not read or write it.`,
        hint,
      );
    }
  }
  const owner = ownerOf(dir);
  // Only a directory can hold our state: anything else (`/dev/null`) is refused as no directory.
  if (owner !== undefined && owner !== uid && isDirectory(dir) && writable(dir)) {
    throw new ForeignStateError(
      `The config directory ${dir} belongs to another user (uid ${owner}) and others can write it; tracker keeps no state there.`,
      hint,
    );
  }
}
