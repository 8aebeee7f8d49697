/**
 * `sourcemap inject` over files and directories: each `.js/.mjs/.cjs` file with a map (named by
 * its `sourceMappingURL` comment, else the sibling `<file>.map`) gets a debug ID; files without a
 * map, inline maps, maps outside the tree, corrupt maps, files that are not regular files or
 * cannot be read or written are left alone with a note. Nothing outside the argument's real tree
 * is read or written (lib/fs), and a rewritten file keeps its mode.
 */
import { relative } from "node:path";
import { readRegularFile } from "../fs/regular.ts";
import { replaceFile, RewriteRefused } from "../fs/rewrite.ts";
import { sourceMappingUrl } from "./debug-id.ts";
import { BadSourceMap, injectPair } from "./inject-text.ts";
import { mapInsideTree, mapPathFor, type SkipNote, walkFiles } from "./walk.ts";
import { oneLine } from "../format/one-line.ts";

/** Extensions `inject` edits. */
export const INJECT_EXTS = ["js", "mjs", "cjs"] as const;

/** One file inject changed (or would change, with --dry-run). */
export interface InjectedFile {
  file: string;
  map: string;
  debugId: string;
  /** Which of the two files changed. */
  changed: ("js" | "map")[];
}

/** What `sourcemap inject` did. */
export interface InjectReport {
  dryRun: boolean;
  injected: InjectedFile[];
  /** Files that already carried their id in both places. */
  unchanged: { file: string; debugId: string }[];
  skipped: SkipNote[];
}

/** Largest JS file or map inject reads (read up to this many bytes, whatever stat says). */
export const MAX_INJECT_FILE_BYTES = 256 * 1024 * 1024;

/** Rewrites one file inside `realRoot`; the reason it was not written, or undefined when it was. */
function rewrite(path: string, text: string, realRoot: string): string | undefined {
  try {
    replaceFile(path, text, { root: realRoot });
    return undefined;
  } catch (err) {
    if (err instanceof RewriteRefused) return err.message;
    return `not written (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
  }
}

/** Injects debug IDs into the JS files under `paths` (but those `ignore` globs match); with `dryRun` nothing is written. */
export function injectPaths(
  paths: readonly string[],
  opts: { cwd: string; dryRun: boolean; ignore?: readonly string[] },
): InjectReport {
  const { files, skipped } = walkFiles(paths, { cwd: opts.cwd, exts: INJECT_EXTS, ignore: opts.ignore });
  const report: InjectReport = { dryRun: opts.dryRun, injected: [], unchanged: [], skipped };
  const show = (abs: string) => relative(opts.cwd, abs) || abs;
  for (const f of files) {
    const js = readRegularFile(f.abs, MAX_INJECT_FILE_BYTES);
    if (!js.ok) {
      skipped.push({ path: show(f.abs), reason: js.note });
      continue;
    }
    const jsText = js.data.toString("utf8");
    const mapAbs = mapPathFor(f.abs, sourceMappingUrl(jsText));
    if (mapAbs === undefined) {
      skipped.push({
        path: show(f.abs),
        reason: "inline data: source map (not supported; emit a separate .map file)",
      });
      continue;
    }
    if (!mapInsideTree(f, mapAbs)) {
      skipped.push({ path: show(f.abs), reason: `its map ${mapAbs} is outside ${show(f.root)}` });
      continue;
    }
    const map = readRegularFile(mapAbs, MAX_INJECT_FILE_BYTES);
    if (!map.ok) {
      skipped.push(
        map.why === "missing"
          ? { path: show(f.abs), reason: "no source map" }
          : { path: show(mapAbs), reason: map.note },
      );
      continue;
    }
    let result: ReturnType<typeof injectPair>;
    try {
      result = injectPair(jsText, map.data.toString("utf8"));
    } catch (err) {
      if (!(err instanceof BadSourceMap)) throw err;
      skipped.push({ path: show(mapAbs), reason: `corrupt source map: ${err.message}` });
      continue;
    }
    const changed: ("js" | "map")[] = [];
    if (result.js !== undefined) changed.push("js");
    if (result.map !== undefined) changed.push("map");
    if (changed.length === 0) {
      report.unchanged.push({ file: show(f.abs), debugId: result.debugId });
      continue;
    }
    if (!opts.dryRun) {
      const mapFailed = result.map === undefined ? undefined : rewrite(mapAbs, result.map, f.realRoot);
      if (mapFailed !== undefined) {
        skipped.push({ path: show(mapAbs), reason: mapFailed });
        continue;
      }
      const jsFailed = result.js === undefined ? undefined : rewrite(f.abs, result.js, f.realRoot);
      if (jsFailed !== undefined) {
        skipped.push({ path: show(f.abs), reason: jsFailed });
        continue;
      }
    }
    report.injected.push({ file: show(f.abs), map: show(mapAbs), debugId: result.debugId, changed });
  }
  return report;
}

/** The human report of inject: one line per changed file, then a summary. */
export function formatInjectReport(r: InjectReport): string[] {
  const verb = r.dryRun ? "would inject" : "injected";
  const lines = r.injected.map((i) => `${verb} ${i.debugId}  ${oneLine(i.file)} (${i.changed.join(" + ")})`);
  lines.push(
    `${r.injected.length} file${r.injected.length === 1 ? "" : "s"} ${r.dryRun ? "would change" : "changed"}, ${r.unchanged.length} already injected, ${r.skipped.length} skipped.`,
  );
  return lines;
}
