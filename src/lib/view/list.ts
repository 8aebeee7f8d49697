/**
 * The one description of a list view: its columns (header, cell, which one absorbs the squeeze),
 * the field that names a row, and a row's JSON document. The terminal table, the piped TSV rows,
 * the `--json` envelope and the `--format md` table are all produced from it (lib/view/render.ts),
 * so a fact the text shows cannot be missing from the markdown: the markdown's cells are the piped
 * row's cells.
 */
import { type Column, formatTable } from "../format/table.ts";

/** What a cell may depend on besides its row. */
export interface CellContext {
  /** A terminal (relative times, headers, padding) rather than a pipe, a file or markdown. */
  tty: boolean;
  /** The run's clock (ms), for relative times. */
  now: number;
  /** A colour terminal: a view may paint its text (never true for markdown or pipes). */
  color?: boolean;
  /** The terminal's width when a cell or line fits itself to it (a terminal only). */
  width?: number | undefined;
}

/** A column: its header and layout (lib/format/table.ts) and how a row fills its cell. */
export interface ViewColumn<T> extends Column {
  cell: (item: T, c: CellContext) => string;
}

/**
 * A list view. `O` is what a run chooses beyond the rows (extra columns such as an alias, the
 * sort); columns may depend on it and on the context (a piped row starts with the ID).
 */
export interface ListView<T, O = undefined> {
  /** The command whose view this is (`monitor list`): the key of the parity test. */
  name: string;
  /** The document view this list is a part of (`status`), when it is not a command's own view. */
  partOf?: string;
  /** The JSON field of a row that its view command accepts (`shortId`, `slug`, `id`). */
  id: string;
  columns: (o: O, c: CellContext) => readonly ViewColumn<T>[];
  /** A row as `--json` gives it. */
  document: (item: T) => unknown;
  /** Colour after layout, so escape codes never count toward widths (terminal with colour only). */
  paint?: (line: string, item: T, o: O) => string;
  /**
   * The terminal form when it is not one table (a trace's logs grouped under their spans); piped
   * rows, `--json` and markdown still come from the columns.
   */
  terminal?: (items: readonly T[], o: O, c: CellContext) => string[];
}

/** The table's header and cells for these rows: the cells a piped run prints, and markdown shows. */
export function viewCells<T, O>(
  view: ListView<T, O>,
  items: readonly T[],
  o: O,
  c: CellContext,
): { headers: string[]; rows: string[][] } {
  const columns = view.columns(o, c);
  return {
    headers: columns.map((col) => col.header),
    rows: items.map((item) => columns.map((col) => col.cell(item, c))),
  };
}

/**
 * The view's lines: on a terminal of `width` columns a table with headers (painted when `color`),
 * otherwise one TSV row per item, nothing padded or cut.
 */
export function viewLines<T, O>(
  view: ListView<T, O>,
  items: readonly T[],
  o: O,
  c: CellContext & { width?: number | undefined },
): string[] {
  if (c.tty && view.terminal) return view.terminal(items, o, c);
  const columns = view.columns(o, c);
  const rows = items.map((item) => columns.map((col) => col.cell(item, c)));
  const lines = formatTable(columns, rows, c.tty ? c.width : undefined);
  const paint = view.paint;
  if (!c.tty || !c.color || paint === undefined) return lines;
  return lines.map((line, n) => (n === 0 ? line : paint(line, items[n - 1] as T, o)));
}
