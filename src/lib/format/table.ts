import { oneLine } from "./one-line.ts";

/** Display width of a string in terminal columns (emoji and CJK count as two). */
export function displayWidth(text: string): number {
  return Bun.stringWidth(text);
}

/** Truncates to a display width, ending with `…` when shortened. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return "";
  if (displayWidth(text) <= width) return text;
  let out = "";
  let w = 0;
  for (const ch of text) {
    const cw = displayWidth(ch);
    if (w + cw > width - 1) break;
    out += ch;
    w += cw;
  }
  return `${out}…`;
}

/** Pads to a display width with spaces on the right. */
export function padEnd(text: string, width: number): string {
  const w = displayWidth(text);
  return w >= width ? text : text + " ".repeat(width - w);
}

/** A table column: header and whether it absorbs the squeeze when the terminal is narrow. */
export interface Column {
  header: string;
  /** The one column truncated to fit the width (e.g. TITLE). */
  flex?: boolean;
  align?: "left" | "right";
}

/** One cell of a piped row: tabs and line breaks in server text would split the row. */
function tsvCell(text: string): string {
  return text.replace(/[\t\r\n]+/g, " ");
}

/**
 * Renders rows for a terminal of the given width: upper-case headers, two-space gaps, the flex
 * column truncated so each line fits, server text on one line (oneLine: no forged rows). Without a width (stdout is not a terminal) the rows are for
 * scripts, as `gh` prints them: no header, one row per line, cells separated by one tab, nothing
 * padded or truncated.
 */
export function formatTable(
  columns: readonly Column[],
  rows: readonly (readonly string[])[],
  width?: number,
): string[] {
  if (width === undefined) return rows.map((r) => r.map(tsvCell).join("\t"));
  const cells = rows.map((r) => r.map(oneLine));
  const widths = columns.map((c, i) =>
    Math.max(displayWidth(c.header), ...cells.map((r) => displayWidth(r[i] ?? ""))),
  );
  const flexIndex = columns.findIndex((c) => c.flex);
  if (flexIndex >= 0) {
    const total = widths.reduce((a, b) => a + b, 0) + 2 * (columns.length - 1);
    if (total > width) {
      const over = total - width;
      widths[flexIndex] = Math.max(
        displayWidth(columns[flexIndex]?.header ?? ""),
        10,
        (widths[flexIndex] ?? 0) - over,
      );
    }
  }
  const render = (row: readonly string[]) =>
    row
      .map((cell, i) => {
        const w = widths[i] ?? 0;
        const text = i === flexIndex ? truncate(cell, w) : cell;
        const last = i === row.length - 1;
        if (columns[i]?.align === "right") return " ".repeat(Math.max(0, w - displayWidth(text))) + text;
        return last ? text : padEnd(text, w);
      })
      .join("  ")
      .trimEnd();
  return [render(columns.map((c) => c.header.toUpperCase())), ...cells.map(render)];
}
