/**
 * `fitJson`, the `--max-chars` trimmer for JSON documents, and the rebuilding of its result; the
 * parts live beside it (queue.ts, tree.ts, protect.ts, report.ts, trimmer.ts, steps.ts,
 * shorten.ts). It runs in O(n log n): each node's text size is measured once, bottom
 * up and without recursion (documents can nest 20,000 levels), then each removal updates the size
 * of every enclosing node at once through a Fenwick tree over the nodes in document order (a
 * node's subtree is a contiguous range of that order), and priority queues pick what goes next.
 *
 * Order of removal, each step only while the document is still too long:
 * 1. the last item of the largest array holding two or more items;
 * 2. whole optional fields: object/array values of keys that are not identity, URL or time keys,
 *    largest first (never the top-level `data`, `hasMore`, `nextCursor`, `total`, `org`);
 * 3. free text: every unprotected string longer than a common level is cut to it, ending in "…";
 * 4. the last item of the largest array, down to none;
 * 5. any field but the top-level kept ones, largest first; 6. the top-level kept ones.
 * Identifiers, URLs and timestamps (by key or by value) are never cut, only dropped whole.
 */

import { shortenText } from "./shorten.ts";
import { dropFields, dropItems, isOptionalField, isTopKept } from "./steps.ts";
import { ARRAY, buildTree, OBJECT, plain, setMember } from "./tree.ts";
import { Trimmer } from "./trimmer.ts";

/** The kept nodes as a new document (the input is never touched), with the report last. */
function rebuild(tr: Trimmer): unknown {
  const { t } = tr;
  const out: unknown[] = new Array(t.n);
  const kept = new Uint8Array(t.n);
  let shortened = 0;
  for (let i = 0; i < t.n; i++) {
    const p = t.parent[i] as number;
    if (tr.gone[i] || (p >= 0 && !kept[p])) continue;
    kept[i] = 1;
    const kind = t.kind[i] as number;
    const text = tr.shortened.get(i);
    if (text !== undefined) shortened++;
    out[i] = kind === ARRAY ? [] : kind === OBJECT ? {} : (text ?? t.value[i]);
    if (p >= 0) setMember(out[p], t.key[i], out[i]);
  }
  if (tr.report && !tr.report.empty) setMember(out[0], "truncated", tr.report.toJson(shortened));
  return out[0];
}

/** A top-level `"truncated"` already in the document gives way to the new report. */
function dropOldReport(tr: Trimmer): void {
  if (tr.t.kind[0] !== OBJECT) return;
  for (const m of tr.t.members[0] as number[]) if (tr.t.key[m] === "truncated") tr.remove(m);
}

/**
 * Trims `doc` so that `toJsonText(result, indent)` is at most `maxChars` characters (also once
 * output.ts escapes DEL, C1 controls and line separators). See {@link truncateJson} in shape.ts
 * for the rules; `indent` 2 bounds the indented text a terminal gets instead of the compact one.
 */
export function fitJson(doc: unknown, maxChars: number, indent = 0): unknown {
  const root = plain(doc);
  if (root === undefined) return doc;
  const t = buildTree(root, indent);
  if ((t.size[0] as number) <= maxChars) return doc;
  const tr = new Trimmer(t, maxChars, indent);
  dropOldReport(tr);
  dropItems(tr, 1);
  // Optional fields go only while half the budget stays: past that, cutting text keeps more.
  dropFields(tr, (i) => isOptionalField(tr, i), maxChars / 2);
  shortenText(tr);
  dropItems(tr, 0);
  dropFields(tr, (i) => !isTopKept(tr, i));
  dropFields(tr, () => true);
  return rebuild(tr);
}
