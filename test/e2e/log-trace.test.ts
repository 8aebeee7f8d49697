import { describe, expect, test } from "bun:test";
import { NEWEST_WEB_LOG } from "../fake-api/routes/logs.ts";
import { TRACE_NESTED } from "../fake-api/routes/traces.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const EVENTS = "/api/0/organizations/acme/events/";
const TREE = `/api/0/organizations/acme/trace/${TRACE_NESTED}/`;
const api = useFakeApi({ latencyMs: 5 });
const run = (args: string[], opts: Parameters<typeof runCli>[1] = {}) =>
  runCli(args, { api, token: USER_TOKEN, ...opts });

/** A config dir that already knows acme's region (the first run looks it up), with the request log cleared. */
async function warm(): Promise<string> {
  const configDir = tempDir();
  await run(["trace", "logs", TRACE_NESTED, "acme", "--json"], { configDir });
  api.reset();
  return configDir;
}

describe("trace logs / trace view --logs (real CLI)", () => {
  test("trace logs: one request over all projects, oldest first, grouped under spans on a terminal", async () => {
    const r = await run(["trace", "logs", TRACE_NESTED, "acme"], {
      terminal: { stdout: true },
      configDir: await warm(),
    });
    expect(r.exitCode).toBe(0);
    expect(api.requests.map((q) => q.path)).toEqual([EVENTS]);
    const q = api.requests[0]?.query;
    expect([q?.get("dataset"), q?.get("query"), q?.get("project")]).toEqual([
      "logs",
      `trace:${TRACE_NESTED}`,
      "-1",
    ]);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe(`Logs of trace ${TRACE_NESTED} in acme (4, oldest first):`);
    expect(lines[2]).toBe("no span");
    expect(lines[3]).toMatch(/^ {2}2026-01-15 11:58:59 {2}INFO {6}request started ⏎ user=42 agent=curl$/);
    expect(lines.filter((l) => l.startsWith("span "))).toHaveLength(3);
    expect(lines.at(-1)).toMatch(/^ {2}2026-01-15 11:58:59 {2}INFO {6}GET \/api\/users 200 in 245ms$/);
  });

  test("trace logs piped and --json", async () => {
    const piped = await run(["trace", "logs", TRACE_NESTED, "acme"]);
    const rows = piped.stdout
      .trimEnd()
      .split("\n")
      .map((l) => l.split("\t"));
    expect(rows.map((r) => r[1])).toEqual(["INFO", "WARN", "ERROR", "INFO"]);
    expect(rows[0]?.[2]).toBe("-");
    expect(rows[3]?.[4]).toBe(NEWEST_WEB_LOG);
    const j = JSON.parse((await run(["trace", "logs", TRACE_NESTED, "acme", "--json"])).stdout);
    expect(Object.keys(j)).toEqual(["traceId", "org", "data", "hasMore"]);
    expect(j.data.map((l: { project: string }) => l.project)).toEqual(["web", "web", "api", "web"]);
  });

  test("trace view --logs: tree and logs fetched together (one round), logs under named spans", async () => {
    const configDir = await warm();
    const r = await run(["trace", "view", TRACE_NESTED, "acme", "--logs"], {
      terminal: { stdout: true },
      configDir,
    });
    expect(r.exitCode).toBe(0);
    expect(api.requests.map((q) => q.path).sort()).toEqual([EVENTS, TREE]);
    expect(new Set(api.requests.map((q) => q.round)).size).toBe(1);
    expect(r.stdout).toContain("Logs (4):\nno span\n");
    expect(r.stdout).toMatch(
      /span [0-9a-f]{16} {2}db\.query — SELECT \* FROM users WHERE org_id = \$1\n {2}2026/,
    );
    const j = JSON.parse((await run(["trace", "view", TRACE_NESTED, "acme", "--logs", "--json"])).stdout);
    expect(j.spanCount).toBe(14);
    expect(j.logs).toHaveLength(4);
    api.reset();
    await run(["trace", "view", TRACE_NESTED, "acme", "--json"], { configDir });
    expect(api.requests.map((q) => q.path)).toEqual([TREE]);
  });
});
