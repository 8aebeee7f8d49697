/**
 * The building blocks of `--format md`: sections with priorities, groups of droppable items, and
 * markdown cells and tables. Server text in a one-line place (a heading, a table cell, a list item)
 * has its line breaks shown as ⏎, so a title cannot open a section of its own.
 */
export type Json = unknown;
export type Obj = Record<string, Json>;

/** A piece of the markdown and how much it matters (0 = always kept). */
export interface Section {
  text: string;
  priority: number;
  /** What the section is, for the "left out" line (e.g. "library frames"). */
  label?: string;
  count?: number;
  /** A group's heading: shown only while an item of its group (same label) remains. */
  heading?: boolean;
}

/** A heading and its items, each item droppable on its own. */
export function group(
  out: Section[],
  heading: string,
  label: string,
  items: string[],
  priority: (i: number) => number,
): void {
  if (items.length === 0) return;
  out.push({ text: heading, priority: 0, label, heading: true });
  for (const [i, text] of items.entries()) out.push({ text, priority: priority(i), label, count: 1 });
}

export const isObj = (v: Json): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
export const str = (v: Json): string =>
  v === null || v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v);
/** Text on one line: line breaks (also U+2028/9) shown as ⏎ instead of starting a new line. */
export const line = (v: Json): string => str(v).replace(/\r\n|[\r\n\u2028\u2029]/g, " ⏎ ");
const fullCell = (v: Json): string => line(v).replace(/\|/g, "\\|").replace(/\s+/g, " ");
const cell = (v: Json): string => fullCell(v).slice(0, 120);

/** One markdown table row of a view's cells, whole (the piped row does not cut them either). */
export function cellRow(cells: readonly string[]): string {
  return `| ${cells.map(fullCell).join(" | ")} |`;
}

export function table(rows: Obj[], columns: string[]): string {
  const head = `| ${columns.join(" | ")} |\n|${columns.map(() => "---").join("|")}|`;
  return [
    head,
    ...rows.map(
      (r) =>
        `| ${columns.map((c) => cell(c in r ? r[c] : c.split(".").reduce<Json>((o, k) => (isObj(o) ? o[k] : undefined), r))).join(" | ")} |`,
    ),
  ].join("\n");
}
