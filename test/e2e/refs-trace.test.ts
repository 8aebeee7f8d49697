/** Piped `trace list` rows are for scripts: full trace IDs, durations in plain milliseconds. */
import { expect, test } from "bun:test";
import { TRACE_ERRORS, TRACE_NESTED } from "../fake-api/routes/traces.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

test("piped: the full trace ID and the duration as a number of milliseconds", async () => {
  const r = await runCli(["trace", "list", "acme/web", "-n", "2"], { api, token: USER_TOKEN });
  expect(r.exitCode).toBe(0);
  const rows = r.stdout
    .trimEnd()
    .split("\n")
    .map((l) => l.split("\t"));
  expect(rows.map((c) => c[0])).toEqual([TRACE_NESTED, TRACE_ERRORS]);
  expect(rows.map((c) => c[2])).toEqual(["245", "512"]);
  for (const c of rows) expect(Number(c[2])).toBeGreaterThan(0);
  // A piped ID is accepted back as is.
  const v = await runCli(["trace", "view", rows[0]?.[0] ?? "", "--json"], {
    api,
    token: USER_TOKEN,
    env: { TRACKER_ORG: "acme" },
  });
  expect(v.exitCode).toBe(0);
});

test("terminal: the table is unchanged (8-character IDs, human durations)", async () => {
  const r = await runCli(["trace", "list", "acme/web", "-n", "2"], {
    api,
    token: USER_TOKEN,
    terminal: { stdout: true },
    env: { NO_COLOR: "1" },
  });
  expect(r.exitCode).toBe(0);
  const lines = r.stdout.trimEnd().split("\n");
  expect(lines[0]).toMatch(/^TRACE ID\s+TRANSACTION\s+DURATION\s+TIMESTAMP$/);
  expect(lines[1]).toMatch(/^aaaa1111 {2}GET \/api\/users\s+245ms {2}\S/);
  expect(lines[2]).toMatch(/^eeee0000 {2}GET \/checkout\s+512ms {2}\S/);
});
