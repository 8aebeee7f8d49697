import { expect, test } from "bun:test";
import { computeAliases } from "../../../src/lib/resolve/aliases.ts";

const SEED = 20260115;

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

test(`aliases are unique, non-empty, well-formed and deterministic (seed ${SEED})`, () => {
  const r = rng(SEED);
  // A tiny alphabet makes shared prefixes and cross-org duplicates frequent.
  const word = () => {
    const n = 1 + Math.floor(r() * 4);
    let w = "";
    for (let i = 0; i < n; i++) w += "abw1"[Math.floor(r() * 4)];
    return w;
  };
  const slug = () => {
    const parts = 1 + Math.floor(r() * 3);
    return Array.from({ length: parts }, word).join(r() < 0.8 ? "-" : "_");
  };
  for (let i = 0; i < 3000; i++) {
    const count = 2 + Math.floor(r() * 8);
    const orgs = ["acme", "globex", "a-w", "ab"].slice(0, 1 + Math.floor(r() * 4));
    const seen = new Set<string>();
    const targets: { org: string; project: string }[] = [];
    while (targets.length < count) {
      const t = { org: orgs[Math.floor(r() * orgs.length)] as string, project: slug() };
      if (seen.has(`${t.org}/${t.project}`)) continue;
      seen.add(`${t.org}/${t.project}`);
      targets.push(t);
    }
    const aliases = computeAliases(targets);
    try {
      expect(aliases).toHaveLength(targets.length);
      expect(new Set(aliases).size).toBe(aliases.length);
      for (const a of aliases) {
        expect(a).toMatch(/^[a-z0-9][a-z0-9_.-]*$/);
        expect(a).not.toMatch(/[-_.]$/);
      }
      expect(computeAliases(targets)).toEqual(aliases);
    } catch (err) {
      throw new Error(
        `seed ${SEED}, case ${i}: ${JSON.stringify(targets)} → ${JSON.stringify(aliases)}\n${(err as Error).message}`,
      );
    }
  }
});
