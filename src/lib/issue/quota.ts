/**
 * Splitting `--limit` across several projects (spec rule 3): phase 1 gives each project
 * ceil(limit / n); phase 2 hands unused quota to projects that have more; the result is trimmed
 * to the limit keeping at least one issue per project that has any.
 */
import { settleLimit } from "../concurrency.ts";

/** Phase-1 quota of each of `n` projects. */
export function phaseOneQuota(limit: number, n: number): number {
  return n <= 0 ? 0 : Math.ceil(limit / n);
}

/**
 * How many rows of each list to keep so the total is at most `limit`, taking each list's best
 * rows first (lists are already sorted by `compare`). Every non-empty list keeps at least one row
 * when `limit` allows it (limit ≥ number of non-empty lists); otherwise the limit wins and the
 * lists with the best first rows keep one each.
 */
export function keptCounts<T>(
  lists: readonly (readonly T[])[],
  limit: number,
  compare: (a: T, b: T) => number,
): number[] {
  const kept = lists.map(() => 0);
  const nonEmpty = lists.map((l, i) => ({ l, i })).filter((x) => x.l.length > 0);
  const better = (a: number, b: number) => {
    const c = compare(lists[a]?.[kept[a] as number] as T, lists[b]?.[kept[b] as number] as T);
    return c !== 0 ? c : a - b;
  };
  if (limit < nonEmpty.length) {
    const order = nonEmpty.map((x) => x.i).sort(better);
    for (const i of order.slice(0, Math.max(0, limit))) kept[i] = 1;
    return kept;
  }
  for (const { i } of nonEmpty) kept[i] = 1;
  let left = limit - nonEmpty.length;
  while (left > 0) {
    let best = -1;
    for (let i = 0; i < lists.length; i++) {
      if ((kept[i] as number) >= (lists[i]?.length ?? 0)) continue;
      if (best < 0 || better(i, best) < 0) best = i;
    }
    if (best < 0) break;
    kept[best] = (kept[best] as number) + 1;
    left--;
  }
  return kept;
}

/** One page of one project's listing. */
export type FetchSome<T> = (
  project: number,
  count: number,
  cursor: string | undefined,
) => Promise<{ rows: T[]; nextCursor: string | undefined }>;

/** Outcome for one project of a split listing. */
export interface ProjectSlice<T> {
  rows: T[];
  /** More rows exist beyond the kept ones (on the server, or fetched and trimmed). */
  hasMore: boolean;
  error?: unknown;
}

/**
 * Fetches up to `limit` rows across `n` projects in parallel (at most `concurrency` in flight),
 * with the two quota phases and the final trim. A failing project is reported in its slice and
 * does not stop the others.
 */
export async function splitFetch<T>(
  n: number,
  limit: number,
  fetchSome: FetchSome<T>,
  compare: (a: T, b: T) => number,
  concurrency: number,
): Promise<ProjectSlice<T>[]> {
  const rows: T[][] = Array.from({ length: n }, () => []);
  const next: (string | undefined)[] = new Array(n).fill(undefined);
  const errors: unknown[] = new Array(n).fill(undefined);
  const quota = phaseOneQuota(limit, n);
  const all = Array.from({ length: n }, (_, i) => i);
  const phase1 = await settleLimit(all, concurrency, (i) => fetchSome(i, quota, undefined));
  phase1.forEach((r, i) => {
    if (r.status === "fulfilled") {
      rows[i] = r.value.rows;
      next[i] = r.value.nextCursor;
    } else errors[i] = r.reason;
  });
  // Phase 2: as long as the total is short and some projects have more, share out what is left.
  for (let round = 0; round < 10; round++) {
    const total = rows.reduce((s, r) => s + r.length, 0);
    const more = all.filter((i) => next[i] && errors[i] === undefined);
    if (total >= limit || more.length === 0) break;
    const share = Math.ceil((limit - total) / more.length);
    const results = await settleLimit(more, concurrency, (i) => fetchSome(i, share, next[i]));
    let gained = 0;
    results.forEach((r, k) => {
      const i = more[k] as number;
      if (r.status === "fulfilled") {
        rows[i]?.push(...r.value.rows);
        next[i] = r.value.nextCursor;
        gained += r.value.rows.length;
      } else {
        errors[i] = r.reason;
      }
    });
    if (gained === 0) break;
  }
  const kept = keptCounts(rows, limit, compare);
  return rows.map((r, i) => {
    const slice: ProjectSlice<T> = {
      rows: r.slice(0, kept[i]),
      hasMore: !!next[i] || (kept[i] as number) < r.length,
    };
    if (errors[i] !== undefined) slice.error = errors[i];
    return slice;
  });
}
