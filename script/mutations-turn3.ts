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
  {
    name: "log list -c last ignores --trace",
    file: "src/commands/log/list.ts",
    find: "    trace: traceId,\n",
    replace: "",
    tests: ["test/e2e/guard-log-query.test.ts"],
  },
  {
    name: "a user query with OR is not parenthesised when trace: is added",
    file: "src/lib/logs/query.ts",
    find: "/\\bOR\\b/.test(t) && terms",
    replace: "false && terms",
    tests: ["test/e2e/guard-log-query.test.ts", "test/lib/logs/parsers.table.test.ts"],
  },
  {
    name: "a log without timestamp_precise gets milliseconds, not nanoseconds",
    file: "src/lib/logs/items.ts",
    find: "BigInt(ms) * 1_000_000n",
    replace: "BigInt(ms)",
    tests: ["test/lib/logs/parsers.table.test.ts"],
  },
];
