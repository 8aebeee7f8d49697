/**
 * Issue 32 §0 guards of `log list`: the saved position of `-c last` belongs to one `--trace`, and a
 * user query with OR stays one term when tracker adds `trace:` to it.
 */
import { describe, expect, test } from "bun:test";
import { TRACE_NESTED } from "../fake-api/routes/traces.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const EVENTS = "/api/0/organizations/acme/events/";
const OTHER_TRACE = "0123456789abcdef0123456789abcdef";
const api = useFakeApi();
const run = (args: string[], configDir: string) =>
  runCli(["log", "list", "acme/web", ...args], { api, token: USER_TOKEN, configDir });

describe("log list guards (real CLI)", () => {
  test("-c last keys on --trace: the same trace continues, another trace has no saved position", async () => {
    const configDir = tempDir();
    const first = await run(["--trace", TRACE_NESTED, "-n", "1", "--json"], configDir);
    expect(first.exitCode).toBe(0);
    const cursor = JSON.parse(first.stdout).nextCursor;
    expect(cursor).toBe("0:1:0");

    const other = await run(["--trace", OTHER_TRACE, "-n", "1", "-c", "last", "--json"], configDir);
    expect(other.exitCode).toBe(21);
    expect(JSON.parse(other.stderr).error.message).toContain("No saved position to continue from");
    // No trace at all is another listing too.
    const none = await run(["-n", "1", "-c", "last"], configDir);
    expect(none.exitCode).toBe(21);
    expect(none.stderr).toContain("No saved position to continue from");

    const same = await run(["--trace", TRACE_NESTED, "-n", "1", "-c", "last", "--json"], configDir);
    expect(same.exitCode).toBe(0);
    // Only the two runs of TRACE_NESTED asked the service; the second went on from the saved cursor.
    expect(api.requestsTo(EVENTS).map((q) => [q.query.get("query"), q.query.get("cursor")])).toEqual([
      [`trace:${TRACE_NESTED}`, null],
      [`trace:${TRACE_NESTED}`, cursor],
    ]);
  });

  test("a query with OR is parenthesised when --trace adds trace: (it filters all of the query)", async () => {
    const r = await run(["--trace", TRACE_NESTED, "-q", "slow OR users", "--json"], tempDir());
    expect(r.exitCode).toBe(0);
    expect(api.requestsTo(EVENTS).map((q) => q.query.get("query"))).toEqual([
      `trace:${TRACE_NESTED} (slow OR users)`,
    ]);
  });

  test("without --trace the query is sent as typed", async () => {
    const r = await run(["-q", "slow OR users", "--json"], tempDir());
    expect(r.exitCode).toBe(0);
    expect(api.requestsTo(EVENTS).map((q) => q.query.get("query"))).toEqual(["slow OR users"]);
  });
});
