/** The caps leave small accounts alone; firstLimit stops starting work after a hit. */
import { describe, expect, test } from "bun:test";
import { firstLimit } from "../../src/lib/concurrency.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

describe("a short ID with no organization, for a token with three", () => {
  test("every organization is searched and the hint names them, without a cap", async () => {
    const r = await runCli(["issue", "view", "NOPE-1"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toStartWith("Error: Issue 'NOPE-1' was not found in any organization you can access.\n");
    expect(r.stderr).toContain("Tried: short ID NOPE-1 in globex, acme, initech.");
    expect(r.stderr).not.toContain("Searched");
    expect(api.requestsTo(/\/shortids\//)).toHaveLength(3);
  });
});

describe("firstLimit", () => {
  test("starts no item after the first hit, collects failures, and reports what it tried", async () => {
    const started: number[] = [];
    const out = await firstLimit([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 2, async (n) => {
      started.push(n);
      if (n === 1) throw new Error("boom");
      return n === 3 ? "three" : undefined;
    });
    expect(out.hit).toEqual({ index: 3, value: "three" });
    expect(out.errors.map((e) => (e as Error).message)).toEqual(["boom"]);
    // Items 0..3, plus at most the one the other worker had already started.
    expect(out.tried).toBeLessThanOrEqual(5);
    expect(started).toHaveLength(out.tried);
  });

  test("without a hit every item is tried", async () => {
    const out = await firstLimit(["a", "b", "c"], 8, async () => undefined);
    expect(out).toEqual({ errors: [], tried: 3 });
  });
});
