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
  {
    name: "monitor run exits 0 when its job exits 1",
    file: "src/commands/monitor/run.ts",
    find: "if (outcome.code !== 0) throw new JobExitError(outcome);",
    replace: "if (outcome.code > 1) throw new JobExitError(outcome);",
    tests: ["test/e2e/guard-monitor-run.test.ts"],
  },
  {
    name: "check-in durations sent in milliseconds",
    file: "src/lib/monitors/run.ts",
    find: "duration: (ended - started) / 1000",
    replace: "duration: ended - started",
    tests: ["test/e2e/guard-monitor-run.test.ts"],
  },
  {
    name: "monitor --interval takes a zero count",
    file: "src/lib/monitors/schedule.ts",
    find: "!INTERVAL_UNITS.includes(unit) || value < 1)",
    replace: "!INTERVAL_UNITS.includes(unit))",
    tests: ["test/lib/monitors/schedule.table.test.ts"],
  },
  {
    name: "the server's maxWait read as milliseconds",
    file: "src/lib/sourcemap/upload.ts",
    find: "options.maxWait ? options.maxWait * 1000 : DEFAULT_MAX_WAIT_MS",
    replace: "options.maxWait ? options.maxWait : DEFAULT_MAX_WAIT_MS",
    tests: ["test/e2e/guard-sourcemap-upload.test.ts"],
  },
  {
    name: "a remembered bundle reused when assemble says not_found",
    file: "src/lib/sourcemap/upload.ts",
    find: 'if (a.missingChunks.length === 0 && a.state !== "not_found") {',
    replace: "if (a.missingChunks.length === 0) {",
    tests: ["test/e2e/guard-sourcemap-upload.test.ts"],
  },
  {
    name: "chunk batches ignore the byte limit",
    file: "src/lib/sourcemap/transfer.ts",
    find: "(cur.length >= perRequest || bytes + c.size > maxBytes)",
    replace: "cur.length >= perRequest",
    tests: ["test/lib/sourcemap/parsers.table.test.ts"],
  },
  {
    name: "pacing removed",
    file: "src/lib/http/client.ts",
    find: "const done = await paced(ctx, paceKey(method, url));",
    replace: "const done = (_h?: Headers) => paceKey(method, url) && undefined;",
    tests: ["test/lib/http/pacing.test.ts"],
  },
  {
    name: "pacing removed (guard file)",
    file: "src/lib/http/client.ts",
    find: "const done = await paced(ctx, paceKey(method, url));",
    replace: "const done = (_h?: Headers) => paceKey(method, url) && undefined;",
    tests: ["test/lib/http/pacing-guards.test.ts"],
  },
  {
    name: "pacing keyed on the whole URL (the cursor too)",
    file: "src/lib/http/pacing.ts",
    find: "URL.parse(url)?.pathname ?? url",
    replace: "URL.parse(url)?.href ?? url",
    tests: ["test/lib/http/pacing-guards.test.ts"],
  },
  {
    name: "ConcurrentRemaining 0 does not serialise",
    file: "src/lib/http/pacing.ts",
    find: "pace.serial = Promise.resolve();",
    replace: "",
    tests: ["test/lib/http/pacing-guards.test.ts"],
  },
  {
    name: "ConcurrentRemaining 0 does not serialise (the original pacing test)",
    file: "src/lib/http/pacing.ts",
    find: "pace.serial = Promise.resolve();",
    replace: "",
    tests: ["test/lib/http/pacing.test.ts"],
  },
];
