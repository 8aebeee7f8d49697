import {
  chmodSync,
  chownSync,
  closeSync,
  fsyncSync,
  openSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * Writes a file by creating a temp file in the same directory and renaming it into place, so a
 * reader never sees half a file. A symlinked target (dotfile managers) is written through the link.
 * An existing file keeps its mode and owner (a 0600 ~/.bashrc stays 0600); a new one gets `mode`
 * exactly, whatever the umask.
 */
export function writeFileAtomic(path: string, content: string, mode = 0o644): void {
  let target = path;
  let keep: { mode: number; uid: number; gid: number } | undefined;
  try {
    target = realpathSync(path);
    const st = statSync(target);
    keep = { mode: st.mode & 0o7777, uid: st.uid, gid: st.gid };
  } catch {
    // Does not exist yet: write it where asked.
  }
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.${Date.now()}.tmp`);
  const fd = openSync(tmp, "wx", mode);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
    closeSync(fd);
    // openSync's mode is filtered by the umask; the final file gets exactly the intended mode.
    chmodSync(tmp, keep?.mode ?? mode);
    if (keep && (keep.uid !== process.getuid?.() || keep.gid !== process.getgid?.())) {
      try {
        chownSync(tmp, keep.uid, keep.gid);
      } catch {
        // Only root may give a file away; the mode is kept either way.
      }
    }
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
