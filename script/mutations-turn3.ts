/**
 * Deliberate breaks in the turn-3 command families (issue 32 §0: releases, monitors, sourcemaps,
 * logs, explore, defaults --here, pacing), each with the tests that must catch it. Kept apart from
 * mutations.ts so the lists stay short; `script/mutate.ts` runs both.
 */
import type { Mutation } from "./mutations.ts";

export const TURN3_MUTATIONS: Mutation[] = [
  {
    name: "the first //# debugId comment wins",
    file: "src/lib/sourcemap/debug-id.ts",
    find: "found = normaliseDebugId(m[1]) ?? found;",
    replace: "found = found ?? normaliseDebugId(m[1]);",
    tests: ["test/lib/sourcemap/parsers.table.test.ts"],
  },
];
