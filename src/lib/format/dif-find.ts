/** `debug-files find`: the files found for the debug IDs asked for, and the IDs no file has. */
import { type DocView, tableBlock } from "../view/doc.ts";
import type { ListView } from "../view/list.ts";

/** A file whose debug ID was asked for. */
export interface DifMatch {
  id: string;
  path: string;
  type: string;
}

/** What `debug-files find` answers (its `--json` document). */
export interface DifFindResult {
  matches: DifMatch[];
  missing: string[];
}

/** One found file. */
export const DIF_MATCH_VIEW: ListView<DifMatch> = {
  name: "debug-files find match",
  partOf: "debug-files find",
  id: "id",
  document: (m) => m,
  columns: () => [
    { header: "debug id", cell: (m) => m.id },
    { header: "type", cell: (m) => m.type },
    { header: "path", cell: (m) => m.path },
  ],
};

/**
 * One `<id>  <type>  <path>` line per file, terminal and pipe alike (`cut -d' ' -f1`); the IDs
 * nothing matched are the run's error on stderr, so only the markdown lists them.
 */
export const DIF_FIND_VIEW: DocView<DifFindResult> = {
  name: "debug-files find",
  id: "id",
  document: (r) => r,
  sections: (r) => [
    {
      block: tableBlock(DIF_MATCH_VIEW, r.matches, undefined, (cells) => [cells.join("  ")]),
      priority: 2,
      keep: 5,
      label: "files",
    },
    {
      heading: "Not found",
      block: { kind: "lines", lines: r.missing.length > 0 ? [r.missing.join(", ")] : [] },
      markdownOnly: true,
    },
  ],
};
