/**
 * Finding the files of `sourcemap inject/upload`: directories are walked in sorted order without
 * recursion, each file's path is relative to the argument it was found under, and nothing outside
 * that argument's tree is entered (lib/fs/contain.ts): a symlink (file or directory) whose real path
 * leaves the tree is a note, and so is anything that is not a regular file or directory (FIFOs,
 * sockets, devices). A directory already on the walk (a loop inside the tree) is entered once.
 */
import { lstatSync, readdirSync, type Stats, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { ValidationError } from "../errors.ts";
import { containedPath, isInside, realPathOf } from "../fs/contain.ts";
import { notRegular } from "../fs/regular.ts";

/** One file found. */
export interface FoundFile {
  abs: string;
  /** Path below its root, with `/` separators. */
  rel: string;
  /** The directory it was found under (the argument, or a file argument's directory). */
  root: string;
  /** The root's real path: every read and write of this file must stay below it. */
  realRoot: string;
  size: number;
  mtimeMs: number;
}

/** A file or directory left out, and why. */
export interface SkipNote {
  path: string;
  reason: string;
}

/** Options of walkFiles. */
export interface WalkOptions {
  cwd: string;
  /** Extensions without the dot (`js`, `map`). */
  exts: readonly string[];
  /** Globs matched against the path below the root (and the base name). */
  ignore?: readonly string[];
}

/** The files under `paths` with one of `exts`, sorted by root then path; what was left out becomes notes. */
export function walkFiles(
  paths: readonly string[],
  opts: WalkOptions,
): { files: FoundFile[]; skipped: SkipNote[] } {
  const files: FoundFile[] = [];
  const skipped: SkipNote[] = [];
  const globs = (opts.ignore ?? []).map((g) => new Bun.Glob(g));
  const ignored = (rel: string) => globs.some((g) => g.match(rel) || g.match(basename(rel)));
  const wanted = (name: string) => opts.exts.some((e) => name.endsWith(`.${e}`));
  const show = (abs: string) => relative(opts.cwd, abs).split(sep).join("/") || abs;
  const seen = new Set<string>();
  for (const raw of paths) {
    const arg = resolve(opts.cwd, raw);
    let st: Stats;
    try {
      st = statSync(arg);
    } catch {
      throw new ValidationError(`No such file or directory: ${raw}`, "path");
    }
    if (!st.isDirectory()) {
      const root = dirname(arg);
      const realRoot = realPathOf(root) ?? root;
      const inside = containedPath(realRoot, arg);
      const bad = notRegular(st);
      if (!inside.ok) skipped.push({ path: show(arg), reason: inside.reason });
      else if (bad) skipped.push({ path: show(arg), reason: bad.note });
      else files.push({ abs: arg, rel: basename(arg), root, realRoot, size: st.size, mtimeMs: st.mtimeMs });
      continue;
    }
    const realRoot = realPathOf(arg) ?? arg;
    const onWalk = new Set<string>();
    // Explicit stack: a deep tree cannot exhaust the call stack. `leave` marks the end of a directory.
    const stack: { dir: string; leave?: string }[] = [{ dir: arg }];
    while (stack.length > 0) {
      const top = stack.pop() as { dir: string; leave?: string };
      if (top.leave !== undefined) {
        onWalk.delete(top.leave);
        continue;
      }
      const dir = top.dir;
      const rel = (abs: string) => relative(arg, abs).split(sep).join("/");
      const where = containedPath(realRoot, dir);
      if (!where.ok) {
        skipped.push({ path: rel(dir) || show(dir), reason: where.reason });
        continue;
      }
      if (onWalk.has(where.real)) {
        skipped.push({ path: rel(dir) || show(dir), reason: "symlink loop (not followed)" });
        continue;
      }
      let names: string[];
      try {
        names = readdirSync(dir).sort();
      } catch (err) {
        skipped.push({
          path: rel(dir) || show(dir),
          reason: `unreadable (${(err as NodeJS.ErrnoException).code ?? "error"})`,
        });
        continue;
      }
      onWalk.add(where.real);
      stack.push({ dir, leave: where.real });
      const subdirs: string[] = [];
      for (const name of names) {
        const abs = join(dir, name);
        const r = rel(abs);
        if (ignored(r)) continue;
        let s: Stats;
        try {
          s = lstatSync(abs);
          if (s.isSymbolicLink()) {
            const inside = containedPath(realRoot, abs);
            if (!inside.ok) {
              if (wanted(name) || isDirLink(abs)) skipped.push({ path: r, reason: inside.reason });
              continue;
            }
            s = statSync(abs);
          }
        } catch {
          skipped.push({ path: r, reason: "broken symlink" });
          continue;
        }
        if (s.isDirectory()) {
          if (name === "node_modules" || name.startsWith(".")) continue;
          subdirs.push(abs);
          continue;
        }
        if (!wanted(name)) continue;
        const bad = notRegular(s);
        if (bad) {
          skipped.push({ path: r, reason: bad.note });
          continue;
        }
        const key = `${arg}\0${r}`;
        if (seen.has(key)) continue;
        seen.add(key);
        files.push({ abs, rel: r, root: arg, realRoot, size: s.size, mtimeMs: s.mtimeMs });
      }
      for (let i = subdirs.length - 1; i >= 0; i--) stack.push({ dir: subdirs[i] as string });
    }
  }
  return { files: sortedByPath(files), skipped };
}

/** Files in the order a depth-first walk of sorted names gives: by argument, then path segment by segment. */
function sortedByPath(files: FoundFile[]): FoundFile[] {
  const order = new Map<string, number>();
  for (const f of files) if (!order.has(f.root)) order.set(f.root, order.size);
  const cmp = (a: FoundFile, b: FoundFile): number => {
    const byRoot = (order.get(a.root) ?? 0) - (order.get(b.root) ?? 0);
    if (byRoot !== 0) return byRoot;
    const sa = a.rel.split("/");
    const sb = b.rel.split("/");
    for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
      const x = sa[i] as string;
      const y = sb[i] as string;
      if (x !== y) return x < y ? -1 : 1;
    }
    return sa.length - sb.length;
  };
  return files.sort(cmp);
}

/** True when a symlink points at a directory (a link out of the tree is worth a note then, whatever its name). */
function isDirLink(abs: string): boolean {
  try {
    return statSync(abs).isDirectory();
  } catch {
    return false;
  }
}

/**
 * True when the file a map reference names is inside the file's tree: its real path (or its
 * directory's, for a map not there yet) is below the root's real path; a path that does not
 * resolve at all is judged by its text.
 */
export function mapInsideTree(f: Pick<FoundFile, "root" | "realRoot">, mapAbs: string): boolean {
  const real = realPathOf(mapAbs) ?? realPathOf(dirname(mapAbs));
  return real !== undefined ? isInside(f.realRoot, real) : isInside(f.root, mapAbs);
}

/**
 * The local file a JS file's map reference names: a relative path (resolved from the JS file's
 * directory; query and fragment dropped), or for an absolute URL its last path segment next to the
 * file. `undefined` for inline `data:` maps.
 */
export function mapPathFor(jsAbs: string, reference: string | undefined): string | undefined {
  if (reference === undefined) return `${jsAbs}.map`;
  if (reference.startsWith("data:")) return undefined;
  const clean = reference.replace(/[?#].*$/, "");
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(clean)) return join(dirname(jsAbs), basename(new URL(clean).pathname));
  let path = clean;
  try {
    path = decodeURIComponent(clean);
  } catch {
    // A malformed escape is taken literally.
  }
  return resolve(dirname(jsAbs), path);
}
