/**
 * The `sourcemap explain` report: each minified frame of the event with why it is still minified;
 * the fixing command goes to stderr.
 */
import type { FrameCause } from "../sourcemap/explain.ts";
import { type DocView, tableBlock } from "../view/doc.ts";
import type { ListView } from "../view/list.ts";
import { oneLine } from "./one-line.ts";

/** One minified frame as the report gives it. */
export interface SourcemapExplainFrame {
  absPath: string;
  function: string | null;
  lineNo: number | null;
  colNo: number | null;
  debugId: string | null;
  cause: FrameCause;
  detail: string;
}

/** What `sourcemap explain` answers (its `--json` document). */
export interface SourcemapExplainReport {
  eventId: string;
  org: string;
  project: string;
  release: string | null;
  dist: string | null;
  /** Where the causes come from: the service's per-event answer, or the uploaded bundles. */
  source: "debug-endpoint" | "bundles";
  frames: SourcemapExplainFrame[];
  fix: string | null;
}

/** One frame: its function, where it is (`url:line:column`) and its verdict. */
export const SOURCEMAP_FRAME_VIEW: ListView<SourcemapExplainFrame> = {
  name: "sourcemap explain frame",
  partOf: "sourcemap explain",
  id: "absPath",
  document: (f) => f,
  columns: () => [
    { header: "function", cell: (f) => f.function ?? "?" },
    { header: "frame", cell: (f) => `${f.absPath}:${f.lineNo ?? "?"}:${f.colNo ?? "?"}` },
    { header: "verdict", cell: (f) => `${f.cause}: ${f.detail}` },
  ],
};

/** `  <function>  <url:line:col>` over `    <cause>: <detail>`, each on one line. */
function frameLines([fn, at, verdict]: readonly string[]): string[] {
  return [oneLine(`  ${fn}  ${at}`), oneLine(`    ${verdict}`)];
}

/** The headline, then two lines per frame. */
export const SOURCEMAP_EXPLAIN_VIEW: DocView<SourcemapExplainReport> = {
  name: "sourcemap explain",
  id: "eventId",
  document: (r) => r,
  sections: (r) => {
    const n = r.frames.length;
    const title =
      n === 0
        ? `Event ${r.eventId} has no minified JavaScript frames: nothing to explain.`
        : `Event ${r.eventId} (${r.org}/${r.project}): ${n} minified frame${n === 1 ? "" : "s"}`;
    return [
      { block: { kind: "lines", lines: [title] } },
      {
        block: tableBlock(SOURCEMAP_FRAME_VIEW, r.frames, undefined, frameLines),
        tight: true,
        priority: 2,
        keep: 3,
        label: "frames",
      },
      { heading: "Fix", block: { kind: "lines", lines: r.fix ? [r.fix] : [] }, markdownOnly: true },
    ];
  },
};
