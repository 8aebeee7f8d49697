/**
 * The one description of a document view (one issue, one log, the status screen): its sections, each
 * a heading and a block of facts (lines, `key: value` pairs, or a list view's table), and the
 * document `--json` gives. The text and the `--format md` forms are both produced from the same
 * sections (lib/view/render.ts, lib/view/doc-markdown.ts): markdown only adds its syntax (a `###`
 * heading, a `- ` before an item, a table's pipes), so it carries every fact the text shows.
 */
import { formatTable } from "../format/table.ts";
import { oneLine } from "../format/one-line.ts";
import type { CellContext, ListView } from "./list.ts";
import { viewCells, viewLines } from "./list.ts";

/** A list view bound to its rows, as a block of a document (status: the issues of a section). */
export interface TableBlock {
  kind: "table";
  /** The table for a terminal (headers, aligned) or the TSV rows. */
  lines: (c: CellContext & { width?: number | undefined }) => string[];
  /** The header and the piped cells: the markdown table. */
  cells: (c: CellContext) => { headers: string[]; rows: string[][] };
}

/** What a section holds. */
export type Block =
  /** Facts on lines of their own (a trace's span tree, a frame with its context). */
  | { kind: "lines"; lines: readonly string[] }
  /**
   * Named values (`environment  production`). With `column`, a report's `Label: value` lines, the
   * values from that column, on a terminal and piped alike (auth status, debug-files check).
   */
  | { kind: "pairs"; pairs: readonly (readonly [string, string])[]; column?: number }
  | TableBlock;

/** One section of a document view. */
export interface ViewSection {
  /** Shown above the block; the first section of a view usually has none (the title lines). */
  heading?: string;
  block: Block;
  /** Shown instead of the block when it is empty (`Nothing regressed.`). */
  empty?: string;
  /**
   * How much the markdown keeps its items under a size bound: 0 always kept (the default); higher
   * goes earlier. `keep` items are kept at priority 1 before the rest go (library frames, tags…).
   * A function gives each item its own (`i` of `n`: older breadcrumbs before newer ones).
   */
  priority?: number | ((i: number, n: number) => number);
  keep?: number;
  /** What its items are, for the markdown's "left out" line. */
  label?: string;
  /** Text on the line after the section before, no blank line between (a report's headline and its fields). */
  tight?: boolean;
  /**
   * Left out of the text, kept by the markdown: what a text run says on stderr (a warning, a Fix
   * line), or what the text leaves out to stay short (an event's library frames) for a reader who
   * cannot ask again; give the latter a high priority so a size bound drops it first.
   */
  markdownOnly?: boolean;
}

/** A document view: the JSON document, and the sections both text and markdown are made of. */
export interface DocView<D> {
  /** The command whose view this is (`log view`): the key of the parity test. */
  name: string;
  /** The JSON field that names the document to its view command. */
  id: string;
  document: (d: D) => unknown;
  sections: (d: D, c: CellContext) => readonly ViewSection[];
  /**
   * The piped form when it is not the sections' text: rows only, what a section's heading says as
   * a column (`tracker status | cut -f1`).
   */
  piped?: (d: D, c: CellContext) => string[];
}

/**
 * A list view and its rows as a block of a document. `layout` gives a report's own text shape to
 * each row's cells (`  name  id` over `    cause: detail`), on a terminal and piped alike; the
 * markdown is the view's table either way.
 */
export function tableBlock<T, O>(
  view: ListView<T, O>,
  items: readonly T[],
  options: O,
  layout?: (cells: readonly string[]) => string[],
): TableBlock {
  return {
    kind: "table",
    lines: (c) =>
      layout
        ? viewCells(view, items, options, c).rows.flatMap((cells) => layout(cells))
        : viewLines(view, items, options, c),
    cells: (c) => viewCells(view, items, options, c),
  };
}

/** True when the block has nothing to show. */
export function isEmptyBlock(b: Block, c: CellContext): boolean {
  if (b.kind === "lines") return b.lines.length === 0;
  if (b.kind === "pairs") return b.pairs.length === 0;
  return b.cells(c).rows.length === 0;
}

/** A block's text lines: pairs aligned on a terminal, `key<TAB>value` when piped. */
export function blockLines(
  b: Block,
  c: CellContext & { width?: number | undefined; color?: boolean },
): string[] {
  if (b.kind === "lines") return b.lines.map((l) => l);
  if (b.kind === "table") return b.lines(c);
  const rows = b.pairs.map(([k, v]) => [k, oneLine(v)]);
  const column = b.column;
  if (column !== undefined) return rows.map(([k, v]) => `${`${k}:`.padEnd(column - 1)} ${v}`);
  if (!c.tty) return rows.map(([k, v]) => `${k}\t${v}`);
  return formatTable([{ header: "" }, { header: "" }], rows, Number.MAX_SAFE_INTEGER).slice(1);
}
