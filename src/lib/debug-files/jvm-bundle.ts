/**
 * JVM source bundles (`debug-files bundle-jvm`, API.md §21.7): the Java/Kotlin/Scala/Groovy/
 * Clojure sources under a directory, each with URL `~/<package path>.jvm` (the
 * `[<module>/]src/<set>/<language>/` prefix removed), in a source bundle: the 8-byte header `SYSB`
 * + version 2, then a zip (offsets counted from the file's start) with `manifest.json` and
 * `files/_/_/<path>`. The walk follows the workspace file rules: nothing outside the directory,
 * regular files only, unreadable files are notes. The bundle is written to a temp file created
 * exclusively next to the target and renamed into place.
 */
import {
  closeSync,
  fsyncSync,
  lstatSync,
  openSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  writeSync,
} from "node:fs";
import { containedPath } from "../fs/contain.ts";
import { readRegularFile } from "../fs/regular.ts";
import { join, relative, sep } from "node:path";
import { ValidationError } from "../errors.ts";
import { ZipWriter } from "../sourcemap/zip.ts";
import type { WalkNote } from "./walk.ts";

/** Extensions of JVM sources. */
export const JVM_EXTENSIONS = ["java", "kt", "scala", "sc", "groovy", "gvy", "gy", "gsh", "clj", "cljc"];
/** Directories never searched (IDE and build-tool state). */
const ALWAYS_EXCLUDED = new Set([
  ".cxx",
  ".eclipse",
  ".fleet",
  ".gradle",
  ".idea",
  ".kotlin",
  ".mvn",
  ".settings",
  ".vscode",
  "node_modules",
]);
/** Build output directories, searched only below a `src/` directory. */
const OUTPUT_DIRS = new Set(["bin", "build", "out", "target"]);
/** Largest source file bundled. */
const MAX_SOURCE_BYTES = 16 * 1024 * 1024;

/** One bundled source. */
export interface JvmSource {
  path: string;
  url: string;
  abs: string;
}

/** `~/<package path>.jvm` for a path below the directory. */
export function jvmUrl(rel: string): string {
  const stripped = /^(?:.*\/)?src\/[^/]+\/(?:java|kotlin|scala|groovy|clojure)\/(.+)$/.exec(rel)?.[1] ?? rel;
  return `~/${stripped.replace(/\.[^./]+$/, "")}.jvm`;
}

/** The sources under `root` (sorted), with notes for what was left out. */
export function findJvmSources(
  root: string,
  exclude: readonly string[],
): { sources: JvmSource[]; notes: WalkNote[] } {
  const realRoot = realpathSync(root);
  const globs = exclude.map((g) => new Bun.Glob(g));
  const sources: JvmSource[] = [];
  const notes: WalkNote[] = [];
  const urls = new Map<string, string>();
  const walk = (dir: string, underSrc: boolean) => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (err) {
      notes.push({ path: relative(root, dir) || ".", reason: `unreadable (${(err as Error).message})` });
      return;
    }
    for (const name of names) {
      const abs = join(dir, name);
      const rel = relative(root, abs).split(sep).join("/");
      if (globs.some((g) => g.match(rel))) continue;
      let st: Stats;
      try {
        st = lstatSync(abs);
      } catch {
        continue; // gone since the directory was read
      }
      let real = abs;
      if (st.isSymbolicLink()) {
        const inside = containedPath(realRoot, abs);
        if (!inside.ok) {
          const broken = inside.reason.startsWith("broken");
          notes.push({
            path: rel,
            reason: broken ? "broken symlink" : "symlink out of the tree (not followed)",
          });
          continue;
        }
        real = inside.real;
        st = statSync(real);
        if (st.isDirectory()) {
          notes.push({ path: rel, reason: "directory symlink (not followed)" });
          continue;
        }
      }
      if (st.isDirectory()) {
        if (ALWAYS_EXCLUDED.has(name) || (OUTPUT_DIRS.has(name) && !underSrc)) continue;
        walk(abs, underSrc || name === "src");
      } else if (st.isFile()) {
        const ext = name.slice(name.lastIndexOf(".") + 1);
        if (!name.includes(".") || !JVM_EXTENSIONS.includes(ext)) continue;
        if (st.size > MAX_SOURCE_BYTES) {
          notes.push({ path: rel, reason: `larger than ${MAX_SOURCE_BYTES} bytes (skipped)` });
          continue;
        }
        const url = jvmUrl(rel);
        const first = urls.get(url);
        if (first) {
          notes.push({ path: rel, reason: `same URL ${url} as ${first} (the first is kept)` });
          continue;
        }
        urls.set(url, rel);
        sources.push({ path: rel, url, abs: real });
      } else notes.push({ path: rel, reason: "not a regular file (skipped)" });
    }
  };
  walk(root, false);
  return { sources, notes };
}

/** The source bundle header: `SYSB` and version 2 (u32 little-endian). */
const HEADER = new Uint8Array([0x53, 0x59, 0x53, 0x42, 2, 0, 0, 0]);

/** Writes the bundle to `target` (atomically); returns its size. */
export async function writeJvmBundle(
  target: string,
  debugId: string,
  sources: readonly JvmSource[],
): Promise<number> {
  const tmp = `${target}.${Bun.randomUUIDv7().slice(-12)}.tmp`;
  const fd = openSync(tmp, "wx", 0o644);
  try {
    const write = (b: Uint8Array) => {
      let at = 0;
      while (at < b.length) at += writeSync(fd, b, at, b.length - at);
    };
    write(HEADER);
    const zip = new ZipWriter(write, HEADER.length);
    const files: Record<string, { type: string; url: string }> = {};
    for (const s of sources) {
      const zipPath = `files/_/_/${s.url.slice(2)}`;
      // Read again through the rules (a regular file, capped while reading): the walk's stat may be stale.
      const read = readRegularFile(s.abs, MAX_SOURCE_BYTES);
      if (!read.ok) throw new ValidationError(`Cannot read ${s.path}: ${read.note}`, "dir");
      zip.addFile(zipPath, read.data);
      files[zipPath] = { type: "source", url: s.url };
    }
    zip.addFile("manifest.json", new TextEncoder().encode(JSON.stringify({ files, debug_id: debugId })));
    zip.finish();
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, target);
    return zip.size;
  } catch (err) {
    try {
      closeSync(fd);
    } catch {
      // closed already
    }
    rmSync(tmp, { force: true });
    throw err;
  }
}
