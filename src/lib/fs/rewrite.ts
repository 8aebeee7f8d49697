/**
 * Rewriting a file in place (STYLE.md "Files a command touches"): the new content goes to a temp
 * file created exclusively (O_CREAT|O_EXCL, so a planted file or symlink at its name is never
 * written through) under a random name in the target's directory, is fsynced, gets the original's
 * mode (755 stays 755, 444 stays 444) and owner where allowed, and is renamed over the target. A
 * symlinked target is written through (the link stays a link) only when its real path is inside
 * the tree the caller names.
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fsyncSync,
  lstatSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { isInside, realPathOf } from "./contain.ts";

/** A rewrite that was refused before anything was written (the message says why). */
export class RewriteRefused extends Error {}

/** Options of replaceFile. */
export interface ReplaceOptions {
  /** Mode of a file that does not exist yet (default 0644), set exactly whatever the umask. */
  mode?: number;
  /** Real path of the tree the target must be in (through any symlink); no check when absent. */
  root?: string;
}

/** A temp name next to `target` nobody can guess: `.<name>.<16 random hex>.tmp`. */
function tempNameFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.${randomBytes(8).toString("hex")}.tmp`);
}

/**
 * Replaces the content of `path` atomically (a reader sees the old file or the new one, never
 * half of one). Throws RewriteRefused when the target leaves `root` or is not a regular file;
 * file-system errors (a read-only directory) are thrown as they are.
 */
export function replaceFile(path: string, content: string | Uint8Array, opts: ReplaceOptions = {}): void {
  let target = path;
  let keep: { mode: number; uid: number; gid: number } | undefined;
  const real = realPathOf(path);
  if (real !== undefined) {
    if (opts.root !== undefined && !isInside(opts.root, real))
      throw new RewriteRefused("its real path is outside the tree (symlink; not written)");
    const st = lstatSync(real);
    if (!st.isFile()) throw new RewriteRefused("not a regular file (not written)");
    target = real;
    keep = { mode: st.mode & 0o7777, uid: st.uid, gid: st.gid };
  } else if (opts.root !== undefined) {
    const parent = realPathOf(dirname(path));
    if (parent === undefined || !isInside(opts.root, parent))
      throw new RewriteRefused("its directory is outside the tree (not written)");
    target = join(parent, basename(path));
  }
  const tmp = tempNameFor(target);
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
  const fd = openSync(tmp, flags, 0o600);
  let open = true;
  try {
    writeAll(fd, typeof content === "string" ? Buffer.from(content) : content);
    // The open mode is filtered by the umask; the final file gets exactly the intended mode.
    fchmodSync(fd, keep?.mode ?? opts.mode ?? 0o644);
    if (keep && (keep.uid !== process.getuid?.() || keep.gid !== process.getgid?.())) {
      try {
        fchownSync(fd, keep.uid, keep.gid);
      } catch {
        // Only root may give a file away; the mode is kept either way.
      }
    }
    fsyncSync(fd);
    closeSync(fd);
    open = false;
    renameSync(tmp, target);
  } catch (err) {
    if (open) closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      // Already renamed.
    }
    throw err;
  }
  syncDirectory(dirname(target));
}

function writeAll(fd: number, data: Uint8Array): void {
  let off = 0;
  while (off < data.length) off += writeSync(fd, data, off, data.length - off);
}

/** Makes the rename durable; best effort (not every platform lets a directory be fsynced). */
function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, constants.O_RDONLY);
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Durability of the directory entry is a bonus, not a condition.
  }
}
