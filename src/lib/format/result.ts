/**
 * The view of what a change did (`release create`, `issue note`, an upload): the sentence the text
 * says, and the result's document. The markdown carries the sentence and, below it, the document's
 * values as `path: value` items, so a reader of `--format md` (an agent through MCP) gets the same
 * facts `--json` gives, not a JSON block.
 */
import type { DocView } from "../view/doc.ts";

/** A change's result: what the text run says on stdout, and its `--json` document. */
export interface ChangeResult {
  said: readonly string[];
  doc: unknown;
}

/**
 * The document's scalar values by dot path, arrays by index, depth first: all of them (a size
 * bound, `--max-chars` or the MCP default, drops them before the sentence).
 */
export function resultValues(doc: unknown): [string, string][] {
  const out: [string, string][] = [];
  const stack: [string, unknown][] = [["", doc]];
  while (stack.length > 0) {
    const [path, v] = stack.pop() as [string, unknown];
    if (v === null || v === undefined) continue;
    if (typeof v !== "object") {
      out.push([path || "value", String(v)]);
      continue;
    }
    const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, x] = entries[i] as readonly [string, unknown];
      stack.push([path ? `${path}.${k}` : k, x]);
    }
  }
  return out;
}

/** `tracker <noun> <change>`: the sentence, then (markdown only) the result's values. */
export const CHANGE_RESULT_VIEW: DocView<ChangeResult> = {
  name: "change result",
  id: "",
  document: (r) => r.doc,
  sections: (r) => [
    { block: { kind: "lines", lines: r.said } },
    {
      heading: "Result",
      block: { kind: "pairs", pairs: resultValues(r.doc) },
      markdownOnly: true,
      priority: 3,
      label: "result values",
    },
  ],
};
