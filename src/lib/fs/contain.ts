/**
 * Containment (STYLE.md "Files a command touches"): a path a command reads or writes must really
 * be inside the tree the user named. Every path is resolved with realpath, so directory and file
 * symlinks out of the tree, `..` in a link or a reference, and absolute links are all caught.
 */
import { realpathSync } from "node:fs";
import { relative, sep } from "node:path";

/** True when `abs` is `root` or below it (lexically: both paths already resolved). */
export function isInside(root: string, abs: string): boolean {
  const r = relative(root, abs);
  return r === "" || (!r.startsWith(`..${sep}`) && r !== ".." && !r.startsWith(sep) && !/^[A-Za-z]:/.test(r));
}

/** The real path of `path` (every symlink resolved), or undefined when it does not resolve. */
export function realPathOf(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** A path that resolves inside the tree, or why it does not. */
export type Contained = { ok: true; real: string } | { ok: false; reason: string };

/**
 * Where `path` really is, when that is inside `realRoot` (a root already resolved with realpath);
 * otherwise the one note to print: a broken link, or a link (or `..`) out of the tree.
 */
export function containedPath(realRoot: string, path: string): Contained {
  const real = realPathOf(path);
  if (real === undefined) return { ok: false, reason: "broken symlink or missing" };
  if (!isInside(realRoot, real))
    return { ok: false, reason: "leads outside the tree (symlink or `..`; not followed)" };
  return { ok: true, real };
}
