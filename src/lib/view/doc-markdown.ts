/**
 * A document view's sections as `--format md` sections: the same facts, with markdown's syntax. The
 * first section without a heading is the title: its first line becomes the `##` heading.
 */
import { cellRow, group, line, type Section, table } from "../format/markdown-parts.ts";
import type { CellContext } from "./list.ts";
import { type ViewSection, isEmptyBlock } from "./doc.ts";

/**
 * A line of text as a markdown line: server text at its start cannot open a heading, a code fence
 * or a table row of its own (a feedback message of `## Resolved`).
 */
const textLine = (l: string) => line(l).replace(/^(\s*)(#|```|~~~|\|)/, "$1\\$2");

function itemsOf(s: ViewSection, c: CellContext): { head?: string; items: string[] } {
  const b = s.block;
  if (b.kind === "lines") return { items: b.lines.map((l) => textLine(l)) };
  if (b.kind === "pairs") return { items: b.pairs.map(([k, v]) => `- ${line(k)}: ${line(v)}`) };
  const { headers, rows } = b.cells(c);
  return { head: table([], headers).trimEnd(), items: rows.map((r) => cellRow(r)) };
}

/** The markdown sections of a document view (priorities for `--max-chars`). */
export function docMarkdown(sections: readonly ViewSection[], c: CellContext): Section[] {
  const out: Section[] = [];
  let titled = false;
  for (const s of sections) {
    if (isEmptyBlock(s.block, c)) {
      if (s.empty !== undefined)
        out.push({
          text: s.heading ? `### ${line(s.heading)}: ${line(s.empty)}` : line(s.empty),
          priority: 0,
        });
      continue;
    }
    const { head, items } = itemsOf(s, c);
    // Only lines make the title: a first block of pairs stays `- key: value` items.
    if (s.heading === undefined && !titled && s.block.kind === "lines") {
      titled = true;
      const [first, ...rest] = items;
      out.push({ text: `## ${first ?? ""}`, priority: 0 });
      for (const text of rest) out.push({ text, priority: 0 });
      continue;
    }
    const heading = [s.heading !== undefined ? `### ${line(s.heading)}` : "", head ?? ""]
      .filter(Boolean)
      .join("\n");
    const keep = s.keep ?? 0;
    const given = s.priority ?? 0;
    const priority = (i: number) =>
      typeof given === "function"
        ? given(i, items.length)
        : given === 0
          ? 0
          : i < keep
            ? 1
            : given + i / 1000;
    const label = s.label ?? s.heading ?? "details";
    if (heading === "") {
      for (const [i, text] of items.entries()) out.push({ text, priority: priority(i), label, count: 1 });
      continue;
    }
    group(out, heading, label, items, priority);
  }
  return out;
}
