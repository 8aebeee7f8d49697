/** Did-you-mean for names the user typed: edit distance and the near matches among candidates. */

/** Edit distance (Levenshtein) of two short words. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j] as number;
      row[j] = Math.min(
        (row[j] as number) + 1,
        (row[j - 1] as number) + 1,
        prev + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      prev = cur;
    }
  }
  return row[b.length] as number;
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
