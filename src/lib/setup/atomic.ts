import {
  chmodSync,
  closeSync,
  fsyncSync,
  openSync,
  realpathSync,
  renameSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * Writes a file by creating a temp file in the same directory and renaming it into place, so a
 * reader never sees half a file. A symlinked target (dotfile managers) is written through the link.
 */
export function writeFileAtomic(path: string, content: string, mode = 0o644): void {
  let target = path;
  try {
    target = realpathSync(path);
  } catch {
    // Does not exist yet: write it where asked.
  }
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.${Date.now()}.tmp`);
  const fd = openSync(tmp, "wx", mode);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
    closeSync(fd);
    // openSync's mode is filtered by the umask; the final file gets exactly `mode`.
    chmodSync(tmp, mode);
    renameSync(tmp, target);
  } catch (err) {
    try {
      closeSync(fd);
    } catch {
      // Already closed.
    }
    try {
      unlinkSync(tmp);
    } catch {
      // Never created or already renamed.
    }
    throw err;
  }
}
