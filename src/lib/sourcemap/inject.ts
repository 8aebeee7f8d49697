/**
 * `sourcemap inject` over files and directories: each `.js/.mjs/.cjs` file with a map (named by
 * its `sourceMappingURL` comment, else the sibling `<file>.map`) gets a debug ID; files without a
 * map, inline maps, maps outside the tree and corrupt maps are left alone with a note.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import { sourceMappingUrl } from "./debug-id.ts";
import { BadSourceMap, injectPair } from "./inject-text.ts";
import { isInside, mapPathFor, type SkipNote, walkFiles } from "./walk.ts";
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

/** Writes a file through a temp file in the same directory and a rename. */
function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.tracker-${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** Injects debug IDs into the JS files under `paths`; with `dryRun` nothing is written. */
export function injectPaths(paths: readonly string[], opts: { cwd: string; dryRun: boolean }): InjectReport {
  const { files, skipped } = walkFiles(paths, { cwd: opts.cwd, exts: INJECT_EXTS });
  const report: InjectReport = { dryRun: opts.dryRun, injected: [], unchanged: [], skipped };
  const show = (abs: string) => relative(opts.cwd, abs) || abs;
  for (const f of files) {
    const jsText = readFileSync(f.abs, "utf8");
    const mapAbs = mapPathFor(f.abs, sourceMappingUrl(jsText));
    if (mapAbs === undefined) {
      skipped.push({
        path: show(f.abs),
        reason: "inline data: source map (not supported; emit a separate .map file)",
      });
      continue;
    }
    if (!isInside(f.root, mapAbs)) {
      skipped.push({ path: show(f.abs), reason: `its map ${mapAbs} is outside ${show(f.root)}` });
      continue;
    }
    if (!existsSync(mapAbs)) {
      skipped.push({ path: show(f.abs), reason: "no source map" });
      continue;
    }
    let result: ReturnType<typeof injectPair>;
    try {
      result = injectPair(jsText, readFileSync(mapAbs, "utf8"));
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
      if (result.map !== undefined) writeAtomic(mapAbs, result.map);
      if (result.js !== undefined) writeAtomic(f.abs, result.js);
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
