/**
 * Private directories and files: created and kept without group or other access, and never a
 * change to anything that is not tracker's own. Root passes every permission check, so a config
 * dir of `/dev/null`, `/tmp` or `/` would otherwise have its mode changed for every user of the
 * machine: only a directory we created, or one owned by us that holds nothing but tracker's own
 * files, is ever tightened, and never through a symlink.
 */
import { chmodSync, type Stats, lstatSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { ConfigError } from "./errors.ts";

/** Entries tracker keeps in its config dir: the database, its WAL and journal files, the skill copy. */
const OWN_ENTRY = /^(tracker\.db(-wal|-shm|-journal)?|skills)$/;

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** True when the process owns `st` (always true where uids do not exist). */
function ownedByUs(st: Stats): boolean {
  const uid = process.getuid?.();
  return uid === undefined || st.uid === uid;
}

/** A config dir that is a file or a device: refused, since nothing of ours can live there. */
export class NotADirectoryError extends ConfigError {}

/**
 * Ensures `dir` is a directory for private state. A missing one is created with mode 0700. An
 * existing one is used as it is unless it is ours (owned by us, a real directory, not sticky, and
 * holding only tracker's files): then bits for group and others are cleared (owner bits are never
 * added, so a deliberately read-only 0500 directory stays read-only). A path that exists and is not
 * a directory (`/dev/null`, a file) is refused with a ConfigError (exit 20).
 */
export function ensurePrivateDir(dir: string): void {
  const st = lstatOrUndefined(dir);
  if (st === undefined) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // mkdir applies the umask; a directory we just made is ours to fix.
    tighten(dir, 0o700);
    return;
  }
  const target = st.isSymbolicLink() ? statOrUndefined(dir) : st;
  if (!target?.isDirectory()) {
    throw new NotADirectoryError(
      `The config directory ${dir} is not a directory.`,
      "Set TRACKER_CONFIG_DIR to a directory of yours (it is created when missing), or unset it.",
    );
  }
  if (st.isSymbolicLink() || !isOurs(dir, st)) return;
  tighten(dir, 0o700);
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** Owned by us, not shared (sticky, like /tmp), and holding nothing but tracker's own entries. */
function isOurs(dir: string, st: Stats): boolean {
  if (!ownedByUs(st) || (st.mode & 0o1000) !== 0) return false;
  try {
    return readdirSync(dir).every((name) => OWN_ENTRY.test(name));
  } catch {
    return false;
  }
}

/**
 * Clears the mode bits of `path` outside `allowed` (never adds any). Only a regular file or
 * directory owned by us is changed: a symlink, a device, or somebody else's file is left alone.
 */
export function tighten(path: string, allowed: number): void {
  const st = lstatOrUndefined(path);
  if (!st || st.isSymbolicLink() || !(st.isFile() || st.isDirectory()) || !ownedByUs(st)) return;
  const mode = st.mode & 0o777;
  if ((mode & ~allowed) === 0) return;
  try {
    chmodSync(path, mode & allowed);
  } catch {
    // A read-only mount: a failing write reports the real problem later.
  }
}
