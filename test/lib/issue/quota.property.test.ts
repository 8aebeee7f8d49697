import { describe, expect, test } from "bun:test";
import { type FetchSome, keptCounts, phaseOneQuota, splitFetch } from "../../../src/lib/issue/quota.ts";

/** Small deterministic PRNG (mulberry32) so failures reproduce from the printed seed. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Row {
  project: number;
  rank: number;
  score: number;
}

const byScore = (a: Row, b: Row) => b.score - a.score;

/** Projects with sorted rows, and a fetcher paging through them by offset cursors. */
function world(sizes: number[], random: () => number) {
  const data = sizes.map((n, p) =>
    Array.from({ length: n }, () => Math.floor(random() * 10_000))
      .sort((a, b) => b - a)
      .map((score, rank) => ({ project: p, rank, score })),
  );
  const calls: { project: number; count: number; cursor: string | undefined }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const fetchSome: FetchSome<Row> = async (project, count, cursor) => {
    calls.push({ project, count, cursor });
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await Bun.sleep(0);
    inFlight--;
    const start = cursor ? Number(cursor) : 0;
    const rows = (data[project] ?? []).slice(start, start + count);
    const end = start + rows.length;
    return { rows, nextCursor: end < (data[project]?.length ?? 0) ? String(end) : undefined };
  };
  return { data, calls, fetchSome, maxInFlight: () => maxInFlight };
}

describe("quota split (property tests)", () => {
  test("phase-one quota is ceil(limit / n)", () => {
    expect(phaseOneQuota(25, 3)).toBe(9);
    expect(phaseOneQuota(100, 4)).toBe(25);
    expect(phaseOneQuota(1, 5)).toBe(1);
  });

  for (let seed = 1; seed <= 150; seed++) {
    test(`seed ${seed}: never over the limit, one per non-empty project, surplus used, prefixes kept`, async () => {
      const random = rng(seed);
      const n = 1 + Math.floor(random() * 7);
      const sizes = Array.from({ length: n }, () =>
        random() < 0.2 ? 0 : Math.floor(random() * (random() < 0.5 ? 20 : 400)),
      );
      const limit = 1 + Math.floor(random() * (random() < 0.3 ? n : 1000));
      const w = world(sizes, random);
      const slices = await splitFetch(n, limit, w.fetchSome, byScore, 8);
      const total = slices.reduce((s, x) => s + x.rows.length, 0);
      const available = sizes.reduce((s, x) => s + x, 0);
      const nonEmpty = sizes.filter((x) => x > 0).length;
      expect(total).toBeLessThanOrEqual(limit);
      expect(total).toBe(Math.min(limit, available));
      if (limit >= nonEmpty) {
        slices.forEach((s, i) => {
          if ((sizes[i] ?? 0) > 0) expect(s.rows.length).toBeGreaterThanOrEqual(1);
        });
      }
      slices.forEach((s, i) => {
        expect(s.rows).toEqual((w.data[i] ?? []).slice(0, s.rows.length));
        expect(s.hasMore).toBe(s.rows.length < (sizes[i] ?? 0));
      });
      // Phase 1 asks every project for ceil(limit / n); no request ever exceeds what is missing.
      const q = phaseOneQuota(limit, n);
      expect(w.calls.slice(0, n).map((c) => c.count)).toEqual(Array(n).fill(q));
      expect(w.calls.every((c) => c.count <= limit)).toBe(true);
    });
  }

  test("projects are fetched in parallel", async () => {
    const w = world([50, 50, 50, 50], rng(7));
    await splitFetch(4, 40, w.fetchSome, byScore, 8);
    expect(w.maxInFlight()).toBe(4);
  });

  test("phase 2 hands the unused quota to projects that have more", async () => {
    const w = world([2, 100, 100], rng(3));
    const slices = await splitFetch(3, 30, w.fetchSome, byScore, 8);
    expect(slices.map((s) => s.rows.length).reduce((a, b) => a + b)).toBe(30);
    expect(slices[0]?.rows).toHaveLength(2);
    // Phase 1: 10 each; the 8 left over go to projects 1 and 2 (4 each), from their cursors.
    expect(w.calls.slice(3)).toEqual([
      { project: 1, count: 4, cursor: "10" },
      { project: 2, count: 4, cursor: "10" },
    ]);
  });

  test("a failing project is reported and does not sink the others", async () => {
    const w = world([30, 30], rng(5));
    const failing: FetchSome<Row> = async (p, c, cur) => {
      if (p === 0) throw new Error("boom");
      return w.fetchSome(p, c, cur);
    };
    const slices = await splitFetch(2, 20, failing, byScore, 8);
    expect(slices[0]?.error).toEqual(new Error("boom"));
    expect(slices[0]?.rows).toEqual([]);
    expect(slices[1]?.rows).toHaveLength(20);
  });

  test("keptCounts: with fewer slots than projects, the best first rows win", () => {
    const mk = (p: number, scores: number[]) => scores.map((score, rank) => ({ project: p, rank, score }));
    expect(keptCounts([mk(0, [5]), mk(1, [9]), mk(2, [7])], 2, byScore)).toEqual([0, 1, 1]);
    expect(keptCounts([mk(0, [1]), mk(1, [9, 8, 7]), []], 3, byScore)).toEqual([1, 2, 0]);
  });
});
