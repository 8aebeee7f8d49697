/** Groups long runs of similar sibling spans (N+1 queries, batch loops) so trees stay readable. */
import type { SpanNode } from "./span-tree.ts";

/** Consecutive similar siblings shown as one line from this many on. */
export const COLLAPSE_RUN_MIN = 4;

/** A sibling entry: one span, or a run of similar spans shown as one line with a count. */
export type SiblingEntry = { kind: "span"; node: SpanNode } | { kind: "run"; nodes: SpanNode[] };

/**
 * The description with every digit sequence replaced by `N`, so `import batch 3` and
 * `import batch 4` count as the same kind of span (the same idea as Sentry's span grouping).
 */
export function normalizeDescription(description: string | null): string | null {
  return description === null ? null : description.replace(/\d+/g, "N");
}

function sameKind(a: SpanNode, b: SpanNode): boolean {
  return (
    a.op === b.op &&
    a.project === b.project &&
    normalizeDescription(a.description) === normalizeDescription(b.description)
  );
}

/** Splits siblings (already ordered by start) into single spans and runs of at least `min` similar ones. */
export function groupSiblings(children: readonly SpanNode[], min = COLLAPSE_RUN_MIN): SiblingEntry[] {
  const out: SiblingEntry[] = [];
  let i = 0;
  while (i < children.length) {
    const first = children[i] as SpanNode;
    let j = i + 1;
    while (j < children.length && sameKind(first, children[j] as SpanNode)) j++;
    if (j - i >= min) out.push({ kind: "run", nodes: children.slice(i, j) });
    else for (let k = i; k < j; k++) out.push({ kind: "span", node: children[k] as SpanNode });
    i = j;
  }
  return out;
}
