/** Did-you-mean for names the user typed: edit distance and the near matches among candidates. */

/**
 * Edit distance of two short words: insertions, deletions, substitutions and swaps of two
 * neighbouring characters each cost 1 (optimal string alignment, as git's did-you-mean counts),
 * so the common typo `wbe` for `web` is one edit, not two.
 */
export function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const same = a[i - 1] === b[j - 1];
      let d = Math.min(
        (prev[j] as number) + 1,
        (cur[j - 1] as number) + 1,
        (prev[j - 1] as number) + (same ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, (before[j - 2] as number) + 1);
      }
      cur.push(d);
    }
    before = prev;
    prev = cur;
  }
  return prev[b.length] as number;
}

/**
 * The candidates near `typed`, closest first: the same ignoring case, or at most 2 edits away
 * (1 for words of up to 4 characters, so short slugs do not suggest unrelated ones). At most 3.
 */
export function nearMatches(typed: string, candidates: Iterable<string>): string[] {
  const want = typed.toLowerCase();
  const limit = want.length <= 4 ? 1 : 2;
  const scored: [string, number][] = [];
  for (const c of candidates) {
    if (c === typed) continue;
    const d = editDistance(want, c.toLowerCase());
    if (d <= limit) scored.push([c, d]);
  }
  return scored
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
    .slice(0, 3)
    .map(([c]) => c);
}
