/**
 * The JSON trimmer's removal steps over whole values: the queue-driven `step`, dropping array items
 * from the end, and dropping object members (best fit first, then largest first), with the rules
 * for which members are optional and which top-level ones are kept longest.
 */

import { isIdentityKey } from "./protect.ts";
import { MaxHeap } from "./queue.ts";
import { ARRAY, OBJECT, stringSize } from "./tree.ts";
import type { Trimmer } from "./trimmer.ts";

const TOP_KEPT = new Set(["data", "hasMore", "nextCursor", "total", "org"]);

/**
 * Runs one removal step: pops the largest candidate, re-queues it when its size went down since
 * it was queued (sizes only shrink, so a fresh top is the true largest), else acts on it.
 */
function step(tr: Trimmer, heap: MaxHeap, keyOf: (i: number) => number, act: (i: number) => void): boolean {
  for (;;) {
    const top = heap.pop();
    if (!top) return false;
    const [queued, i] = top;
    if (!tr.alive(i)) continue;
    const key = keyOf(i);
    if (key < 0) continue;
    if (key < queued) {
      heap.push(key, i);
      continue;
    }
    act(i);
    const next = tr.alive(i) ? keyOf(i) : -1;
    if (next >= 0) heap.push(next, i);
    return true;
  }
}

/** Removal steps until the document fits or nothing is left to remove. */
function drain(tr: Trimmer, heap: MaxHeap, keyOf: (i: number) => number, act: (i: number) => void): void {
  while (!tr.fits() && step(tr, heap, keyOf, act)) {}
}

/** Nodes still in the document that `keep` accepts, in document order (removed subtrees skipped). */
export function liveNodes(tr: Trimmer, keep: (i: number) => boolean): number[] {
  const out: number[] = [];
  for (let i = 0; i < tr.t.n; i++) {
    if (tr.gone[i]) i = tr.t.last[i] as number;
    else if (keep(i)) out.push(i);
  }
  return out;
}

function queueOf(nodes: readonly number[], keyOf: (i: number) => number): MaxHeap {
  const heap = new MaxHeap();
  for (const i of nodes) {
    const key = keyOf(i);
    if (key >= 0) heap.push(key, i);
  }
  return heap;
}

/** Drops array items from the end, largest array first, leaving `keep` items in each. */
export function dropItems(tr: Trimmer, keep: number): void {
  const keyOf = (i: number) => ((tr.live[i] as number) > keep ? tr.current(i) : -1);
  const heap = queueOf(
    liveNodes(tr, (i) => tr.t.kind[i] === ARRAY),
    keyOf,
  );
  drain(tr, heap, keyOf, (i) => tr.dropLast(i));
}

/** Best-fit searches per field step (each is a pass over the candidates). */
const BEST_FIT_SCANS = 8;

/**
 * Drops whole object members that `eligible` allows: the smallest one whose removal alone makes
 * the document fit (a trace loses its deepest spans, not all of them), else the largest; never
 * one that would leave the document under `floor` characters.
 */
export function dropFields(tr: Trimmer, eligible: (i: number) => boolean, floor = 0): void {
  const isMember = (i: number) => i > 0 && tr.t.kind[tr.t.parent[i] as number] === OBJECT && eligible(i);
  const keyOf = (i: number) => {
    const size = tr.memberSize(i);
    return tr.total() - size >= floor ? size : -1;
  };
  const act = (i: number) => tr.remove(i, "field");
  const candidates = liveNodes(tr, isMember);
  const heap = queueOf(candidates, keyOf);
  for (let scans = 0; !tr.fits(); ) {
    const best = scans++ < BEST_FIT_SCANS ? bestFit(tr, candidates, floor) : -1;
    if (best >= 0) act(best);
    else if (!step(tr, heap, keyOf, act)) return;
  }
}

/** The smallest live candidate whose removal (report entry included) makes the document fit. */
function bestFit(tr: Trimmer, candidates: readonly number[], floor: number): number {
  const total = tr.total();
  const excess = total - tr.maxChars;
  const entry = 16 + 2 * tr.indent + (tr.report?.empty ? 20 + tr.indent : 0);
  let best = -1;
  let bestSize = Number.POSITIVE_INFINITY;
  for (const i of candidates) {
    if (!tr.alive(i)) continue;
    const size = tr.memberSize(i);
    if (size >= bestSize || total - size < floor) continue;
    if (size >= excess + entry + stringSize(tr.t.path[i] as string)) {
      best = i;
      bestSize = size;
    }
  }
  return best;
}

export function isTopKept(tr: Trimmer, i: number): boolean {
  const key = tr.t.key[i] as string;
  return tr.t.parent[i] === 0 && (TOP_KEPT.has(key) || isIdentityKey(key));
}

export function isOptionalField(tr: Trimmer, i: number): boolean {
  const kind = tr.t.kind[i] as number;
  return kind >= ARRAY && !isIdentityKey(tr.t.key[i] as string) && !isTopKept(tr, i);
}
