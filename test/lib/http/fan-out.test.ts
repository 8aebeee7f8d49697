import { describe, expect, test } from "bun:test";
import { FAN_OUT_CONCURRENCY, mapLimit, settleLimit } from "../../../src/lib/concurrency.ts";

/** Runs `n` tasks through mapLimit and reports the most that were ever in flight at once. */
async function peakInFlight(n: number, limit: number) {
  let inFlight = 0;
  let peak = 0;
  const out = await mapLimit(
    Array.from({ length: n }, (_, i) => i),
    limit,
    async (i) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      // Uneven, microtask-only delays: tasks finish out of order without wall-clock waits.
      for (let k = 0; k <= (i * 7) % 5; k++) await Promise.resolve();
      inFlight--;
      return i * 2;
    },
  );
  return { out, peak };
}

describe("mapLimit", () => {
  test("never exceeds the limit, uses all of it, and keeps input order", async () => {
    for (const [n, limit] of [
      [20, 3],
      [50, FAN_OUT_CONCURRENCY],
      [2, 8],
      [1, 1],
    ] as const) {
      const { out, peak } = await peakInFlight(n, limit);
      expect(peak).toBe(Math.min(n, limit));
      expect(out).toEqual(Array.from({ length: n }, (_, i) => i * 2));
    }
  });

  test("an empty input resolves to an empty array without calling fn", async () => {
    let calls = 0;
    expect(await mapLimit([], 4, async () => ++calls)).toEqual([]);
    expect(calls).toBe(0);
  });

  test("the default fan-out cap stays small (API.md §9.3: 8–15 in flight)", () => {
    expect(FAN_OUT_CONCURRENCY).toBeGreaterThanOrEqual(2);
    expect(FAN_OUT_CONCURRENCY).toBeLessThanOrEqual(15);
  });
});

describe("settleLimit", () => {
  test("records failures per item instead of rejecting the whole fan-out", async () => {
    const res = await settleLimit(["a", "b", "c"], 2, async (x) => {
      if (x === "b") throw new Error("region down");
      return x.toUpperCase();
    });
    expect(res.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(res[0]).toEqual({ status: "fulfilled", value: "A" });
    expect((res[1] as PromiseRejectedResult).reason.message).toBe("region down");
  });
});
