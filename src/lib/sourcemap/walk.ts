/**
 * Finding the files of `sourcemap inject/upload`: directories are walked in sorted order, symlinks
 * are followed but a directory already on the walk (a loop) is never entered twice, and each
 * file's path is relative to the argument it was found under.
 */
import { lstatSync, readdirSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { ValidationError } from "../errors.ts";

/** One file found. */
export interface FoundFile {
  abs: string;
  /** Path below its root, with `/` separators. */
  rel: string;
  /** The directory it was found under (the argument, or a file argument's directory). */
  root: string;
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

/** The files under `paths` with one of `exts`, sorted by root then path; loops and unreadable entries become notes. */
export function walkFiles(
  paths: readonly string[],
  opts: WalkOptions,
): { files: FoundFile[]; skipped: SkipNote[] } {
  const files: FoundFile[] = [];
  const skipped: SkipNote[] = [];
  const globs = (opts.ignore ?? []).map((g) => new Bun.Glob(g));
  const ignored = (rel: string) => globs.some((g) => g.match(rel) || g.match(basename(rel)));
  const wanted = (name: string) => opts.exts.some((e) => name.endsWith(`.${e}`));
  const seen = new Set<string>();
  for (const raw of paths) {
    const arg = resolve(opts.cwd, raw);
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(arg);
    } catch {
      throw new ValidationError(`No such file or directory: ${raw}`, "path");
    }
    if (st.isFile()) {
      files.push({ abs: arg, rel: basename(arg), root: dirname(arg), size: st.size, mtimeMs: st.mtimeMs });
      continue;
    }
    const visiting = new Set<string>();
    const walk = (dir: string) => {
      let real: string;
      try {
        real = realpathSync(dir);
      } catch (err) {
        skipped.push({ path: dir, reason: `unreadable (${(err as Error).message})` });
        return;
      }
      if (visiting.has(real)) {
        skipped.push({ path: relative(opts.cwd, dir) || dir, reason: "symlink loop (not followed)" });
        return;
      }
      visiting.add(real);
      let names: string[];
      try {
        names = readdirSync(dir).sort();
      } catch (err) {
        skipped.push({ path: dir, reason: `unreadable (${(err as Error).message})` });
        return;
      }
      for (const name of names) {
        const abs = join(dir, name);
        const rel = relative(arg, abs).split(sep).join("/");
        if (ignored(rel)) continue;
        let s: ReturnType<typeof statSync>;
        try {
          s = lstatSync(abs).isSymbolicLink() ? statSync(abs) : lstatSync(abs);
        } catch {
          skipped.push({ path: rel, reason: "broken symlink" });
          continue;
        }
        if (s.isDirectory()) {
          if (name === "node_modules" || name.startsWith(".")) continue;
          walk(abs);
        } else if (s.isFile() && wanted(name)) {
          const key = `${arg}\0${rel}`;
          if (seen.has(key)) continue;
          seen.add(key);
          files.push({ abs, rel, root: arg, size: s.size, mtimeMs: s.mtimeMs });
        }
      }
      visiting.delete(real);
    };
    walk(arg);
  }
  return { files, skipped };
}

/** True when `abs` is `root` or below it. */
export function isInside(root: string, abs: string): boolean {
  const r = relative(root, abs);
  return r === "" || (!r.startsWith("..") && !r.startsWith(sep) && !/^[A-Za-z]:/.test(r));
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
  return resolve(dirname(jsAbs), decodeURIComponent(clean));
}
