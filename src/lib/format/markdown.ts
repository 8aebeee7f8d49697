/**
 * `--format md`: a command's JSON document as markdown sized for a language model. Each document
 * becomes sections with a priority; `--max-chars` drops the least useful ones first (library
 * frames, older breadcrumbs, extra tags, later rows) and ends with one line saying what was left out.
 */

import { headUnits } from "../text-head.ts";
import {
  cellRow,
  group,
  isObj,
  type Json,
  line,
  type Obj,
  type Section,
  str,
  table,
} from "./markdown-parts.ts";

/** The label of a list's row sections and of its cursor line (rewritten when rows are left out). */
const ROWS = "rows";
const CURSOR = "cursor";

/** A list view's header and piped cells (lib/view/list.ts): the table its markdown shows. */
export interface ViewTable {
  headers: string[];
  rows: string[][];
}

/** The rows of a list: the view's cells when the list has a view, else the named fields of each item. */
function rowTable(items: Obj[], view: ViewTable | undefined): { head: string; rows: string[] } {
  if (view) {
    const head = table([], view.headers).trimEnd();
    return { head, rows: view.rows.map((cells) => cellRow(cells)) };
  }
  const columns = guessColumns(items);
  return {
    head: table([], columns).trimEnd(),
    rows: items.map((it) => table([it], columns).split("\n")[2] as string),
  };
}

/**
 * The columns of a list that has no view (a write's result, `tracker api`): the scalar members of
 * its first item, as many as fit a line.
 */
function guessColumns(items: Obj[]): string[] {
  const first = items[0] ?? {};
  return Object.keys(first)
    .filter((k) => !isObj(first[k]) && !Array.isArray(first[k]))
    .slice(0, 6);
}

function listSections(items: Obj[], extra: Obj, view?: ViewTable): Section[] {
  const out: Section[] = [
    {
      text: `${items.length} item${items.length === 1 ? "" : "s"}${extra.hasMore ? " (more: pass nextCursor)" : ""}`,
      priority: 0,
    },
  ];
  // Rows are their own sections so a size bound drops the last ones first.
  const { head, rows } = rowTable(items, view);
  group(out, head, ROWS, rows, (i) => (i < 5 ? 1 : 2 + i));
  // A blank line ends the table: a markdown parser would read the next line as one more row.
  out.push({
    text: extra.nextCursor ? `\nnextCursor: ${line(extra.nextCursor)}` : "",
    priority: 0,
    label: CURSOR,
  });
  return out;
}

/**
 * The sections of a document: its view's (lib/view), else a generic form of what has no view (a
 * list's scalar members as a table, anything else as its JSON). No shape is guessed: every read
 * command renders through its view.
 */
function sectionsOf(doc: Json, view?: ViewTable | (() => Section[])): Section[] {
  if (typeof view === "function") return view();
  if (Array.isArray(doc)) return listSections(doc.filter(isObj), {}, view);
  if (!isObj(doc)) return [{ text: str(doc), priority: 0 }];
  if (Array.isArray(doc.data)) return listSections((doc.data as Json[]).filter(isObj), doc, view);
  return [{ text: `\`\`\`json\n${JSON.stringify(doc, null, 2)}\n\`\`\``, priority: 0 }];
}

function join(sections: readonly Section[]): string {
  return sections
    .map((s) => s.text)
    .join("\n")
    .replace(/\n(#{2,3} )/g, "\n\n$1");
}

/**
 * Renders a document as markdown, within `maxChars` when given; a listing with a `view` shows the
 * view's table, a document made by a document view (lib/view/doc.ts) its sections. For a listing, `resume(kept)` is
 * the cursor that continues after its first `kept` rows: when rows are left out, the cursor line
 * names that position, not the one after the whole page.
 */
export function renderMarkdown(
  doc: Json,
  maxChars?: number,
  resume?: (kept: number) => string | undefined,
  view?: ViewTable | (() => Section[]),
): string {
  let sections = sectionsOf(doc, view).filter((s) => s.label !== CURSOR || s.text !== "");
  if (maxChars === undefined || join(sections).length <= maxChars) return join(sections);
  const rows = sections.filter((s) => s.label === ROWS && !s.heading).length;
  const cursorAt = (kept: number) => {
    const cursor = kept < rows ? resume?.(kept) : undefined;
    if (cursor === undefined) return;
    const text = `\nnextCursor: ${line(cursor)}`;
    const at = sections.findIndex((s) => s.label === CURSOR);
    if (at >= 0) sections[at] = { ...(sections[at] as Section), text };
    else sections.push({ text, priority: 0, label: CURSOR });
  };
  let budget = maxChars;
  // Room for the longer cursor a cut listing ends with (its length is known only once rows go).
  if (resume && rows > 0) {
    const reserve = `\nnextCursor: ${line(resume(0) ?? "")}@99`.length + 1;
    budget = Math.max(0, maxChars - reserve);
  }
  const left: Record<string, number> = {};
  const order = sections
    .map((s, i) => ({ s, i }))
    .filter((x) => x.s.priority > 0)
    .sort((a, b) => b.s.priority - a.s.priority || b.i - a.i);
  const note = () =>
    `\n\n_Left out to fit ${maxChars} characters: ${Object.entries(left)
      .map(([k, n]) => `${n} ${k}`)
      .join(", ")}._`;
  // The length is kept up to date as sections go (re-joining each time was quadratic: a trace
  // of 20,000 spans took 20 s); the final check below trims to the exact bound either way.
  let length = join(sections).length;
  const dropped = new Set<Section>();
  for (const { s } of order) {
    if (length + note().length <= budget) break;
    dropped.add(s);
    length -=
      s.text.length + 1 + (/^#{2,3} /.test(s.text) ? 1 : 0) + (s.text.match(/\n#{2,3} /g)?.length ?? 0);
    const label = s.label ?? "details";
    left[label] = (left[label] ?? 0) + (s.count ?? 1);
  }
  sections = sections.filter((x) => !dropped.has(x));
  if (resume) cursorAt(sections.filter((s) => s.label === ROWS && !s.heading).length);
  const kept = new Set(sections.filter((x) => !x.heading).map((x) => x.label));
  sections = sections.filter((x) => !x.heading || kept.has(x.label));
  let text = join(sections);
  if (text.length + note().length > maxChars) {
    const keep = Math.max(0, maxChars - note().length - 30);
    const kept = headUnits(text, keep);
    left["characters"] = (left["characters"] ?? 0) + (text.length - kept.length);
    text = `${kept}…`;
  }
  return `${text}${Object.keys(left).length ? note() : ""}`;
}
