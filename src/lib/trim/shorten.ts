/**
 * The JSON trimmer's text step: unprotected strings longer than a common level are cut to it,
 * ending in "…", the level chosen by a search over string lengths.
 */

import { isProtectedText } from "./protect.ts";
import { liveNodes } from "./steps.ts";
import { STRING } from "./tree.ts";
import type { Trimmer } from "./trimmer.ts";

/** Shortest prefix a cut string keeps (before its "…"). */
const MIN_TEXT = 20;

/** `s` cut to its first `n` UTF-16 units (never inside a surrogate pair), ending in "…". */
function cut(s: string, n: number): string {
  const code = s.charCodeAt(n - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? n - 1 : n;
  return `${s.slice(0, end).trimEnd()}…`;
}

/** Strings that may be cut: free text long enough for a cut to save something. */
function textCandidates(tr: Trimmer): number[] {
  return liveNodes(tr, (i) => {
    if (tr.t.kind[i] !== STRING) return false;
    const s = tr.t.value[i] as string;
    return s.length > MIN_TEXT + 1 && (i === 0 || !isProtectedText(tr.t.textKey[i], s));
  });
}

/** Highest level (≥ MIN_TEXT) such that cutting every longer string to it saves `need` units. */
function waterLevel(lengths: readonly number[], need: number): number {
  const saving = (level: number) => {
    let s = 0;
    for (const len of lengths) if (len > level + 1) s += len - level - 1;
    return s;
  };
  let lo = MIN_TEXT;
  let hi = lengths.reduce((a, b) => Math.max(a, b), MIN_TEXT);
  if (saving(lo) < need) return lo;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (saving(mid) >= need) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Cuts the longest free text first: every candidate longer than a common level is cut to it, the
 * level chosen from lengths in UTF-16 units (the text shrinks at least as much: escapes only
 * make the cut part longer), lowered again while the document is still too long.
 */
export function shortenText(tr: Trimmer): void {
  const candidates = textCandidates(tr);
  const lengths = candidates.map((i) => (tr.t.value[i] as string).length);
  let level = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 32 && candidates.length > 0 && !tr.fits(); round++) {
    const next = waterLevel(lengths, tr.total() - tr.maxChars + 40);
    if (next >= level) return;
    level = next;
    candidates.forEach((i, j) => {
      if ((lengths[j] as number) <= level + 1) return;
      const text = cut(tr.t.value[i] as string, level);
      tr.shorten(i, text);
      lengths[j] = text.length;
    });
  }
}
