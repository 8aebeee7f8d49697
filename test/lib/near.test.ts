import { describe, expect, test } from "bun:test";
import { editDistance, nearMatches } from "../../src/lib/near.ts";

describe("editDistance", () => {
  for (const [a, b, d] of [
    ["web", "web", 0],
    ["", "web", 3],
    ["web", "", 3],
    ["backnd", "backend", 1],
    ["wbe", "web", 1],
    ["wroker", "worker", 1],
    ["acmee", "acme", 1],
    ["abc", "cba", 2],
    ["kitten", "sitting", 3],
    ["ca", "abc", 3],
  ] as const) {
    test(`${a || "''"} → ${b || "''"}: ${d}`, () => {
      expect(editDistance(a, b)).toBe(d);
      expect(editDistance(b, a)).toBe(d);
    });
  }
});

describe("nearMatches", () => {
  const projects = ["web", "api", "mobile-app", "worker", "billing"];
  test("a swapped pair in a short slug is near", () => {
    expect(nearMatches("wbe", projects)).toEqual(["web"]);
  });
  test("short words allow one edit, longer ones two; closest first, at most 3", () => {
    expect(nearMatches("wxyz", projects)).toEqual([]);
    expect(nearMatches("biling", projects)).toEqual(["billing"]);
    expect(nearMatches("mobil-ap", projects)).toEqual(["mobile-app"]);
    expect(nearMatches("aaa", ["aab", "aac", "aad", "aae", "aa"])).toEqual(["aa", "aab", "aac"]);
  });
  test("a case variant is near, the exact name is not suggested", () => {
    expect(nearMatches("Web", projects)).toEqual(["web"]);
    expect(nearMatches("web", projects)).toEqual([]);
  });
});
