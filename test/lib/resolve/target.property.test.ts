import { expect, test } from "bun:test";
import { ValidationError } from "../../../src/lib/errors.ts";
import { parseTarget } from "../../../src/lib/resolve/target.ts";

const SEED = 77;

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

test(`parseTarget never throws anything but ValidationError, and round-trips valid forms (seed ${SEED})`, () => {
  const r = rng(SEED);
  const alphabet = "aZ09-_./ \t\n:";
  const slugChars = "abcXYZ019-_.";
  const slug = () => {
    const n = 1 + Math.floor(r() * 8);
    let s = "abcXYZ019"[Math.floor(r() * 9)] as string;
    for (let i = 1; i < n; i++) s += slugChars[Math.floor(r() * slugChars.length)];
    return s;
  };
  for (let i = 0; i < 5000; i++) {
    let text = "";
    const n = Math.floor(r() * 12);
    for (let j = 0; j < n; j++) text += alphabet[Math.floor(r() * alphabet.length)];
    try {
      parseTarget(text);
    } catch (err) {
      if (!(err instanceof ValidationError))
        throw new Error(`seed ${SEED}, case ${i}: ${JSON.stringify(text)} threw ${err}`);
    }
    const org = slug();
    const project = slug();
    const pad = () => [" ", "", "\t", "\n"][Math.floor(r() * 3)] as string;
    try {
      expect(parseTarget(`${pad()}${org}/${project}${pad()}`)).toEqual({ kind: "explicit", org, project });
      expect(parseTarget(`${org}/`)).toEqual({ kind: "org-all", org });
      expect(parseTarget(project)).toEqual({ kind: "project-search", project });
    } catch (err) {
      throw new Error(`seed ${SEED}, case ${i}: ${org}/${project}\n${(err as Error).message}`);
    }
  }
});
