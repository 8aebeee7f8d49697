/**
 * Which workspace files count (git's `safe.directory` idea): a `.sentryclirc`, `sentry.properties`
 * or `.env` is only read when the user running tracker owns it and the directory it sits in, and
 * no other user can write either. A file in a shared `/tmp`, a sticky directory, or a tree
 * another user owns may have been planted there: it is ignored, with one warning. Where there are
 * no user ids (Windows) every file counts.
 */
import { realpathSync, type Stats, statSync } from "node:fs";
import { dirname } from "node:path";

/** The user whose files count: the process's own ids, unless a test names others. */
export interface TrustIdentity {
  uid: number;
  gid: number;
}

function processIdentity(): TrustIdentity | undefined {
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  return uid === undefined || gid === undefined ? undefined : { uid, gid };
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Why `st` may have been written by someone else, or undefined. Group write counts only for a
 * group other than the user's own (user-private groups are the common case).
 */
function foreignReason(st: Stats, who: TrustIdentity): string | undefined {
  if (st.uid !== who.uid) return `owned by another user (uid ${st.uid})`;
  if ((st.mode & 0o002) !== 0) return "writable by every user";
  if ((st.mode & 0o020) !== 0 && st.gid !== who.gid) return `writable by group ${st.gid}`;
  return undefined;
}

/**
 * Why the workspace file at `path` must not be used, as one phrase (`it is owned by another user
 * (uid 0)`, `its directory /tmp is writable by every user`), or undefined when it counts or does
 * not exist. A symlink is judged by both the directory of the link and that of its target.
 */
export function untrustedReason(
  path: string,
  who: TrustIdentity | undefined = processIdentity(),
): string | undefined {
  if (!who) return undefined;
  const st = statOrUndefined(path);
  if (!st) return undefined;
  const own = foreignReason(st, who);
  if (own) return `it is ${own}`;
  const dirs = new Set([dirname(path)]);
  try {
    dirs.add(dirname(realpathSync(path)));
  } catch {
    // Gone between the two calls: judged by the directory it was found in.
  }
  for (const dir of dirs) {
    const dst = statOrUndefined(dir);
    if (!dst) return `its directory ${dir} cannot be checked`;
    const why = foreignReason(dst, who);
    if (why) return `its directory ${dir} is ${why}`;
  }
  return undefined;
}

/** The one warning for a workspace file that is ignored (what to do about it included). */
export function ignoredFileWarning(path: string, reason: string): string {
  return `Ignoring ${path}: ${reason}, so it may not be yours. Move it into a directory only you own and can write, or set the value in the environment.`;
}
