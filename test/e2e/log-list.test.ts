import { describe, expect, test } from "bun:test";
import { addLog, MULTILINE_LOG, NEWEST_WEB_LOG, WEB_LOG_COUNT } from "../fake-api/routes/logs.ts";
import { TRACE_NESTED } from "../fake-api/routes/traces.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const EVENTS = "/api/0/organizations/acme/events/";
const api = useFakeApi();
const run = (args: string[], opts: Parameters<typeof runCli>[1] = {}) =>
  runCli(["log", "list", ...args], { api, token: USER_TOKEN, ...opts });

describe("log list (real CLI)", () => {
  test("piped: tab-separated rows with RFC 3339 times and full ids; the documented request", async () => {
    const r = await run(["acme/web", "-n", "3"]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      [
        `2026-01-15T11:58:59Z\tINFO\tGET /api/users 200 in 245ms\t${TRACE_NESTED}\t${NEWEST_WEB_LOG}`,
        `2026-01-15T11:58:59Z\tWARN\tslow query: users\t${TRACE_NESTED}\t10900000000000000000000000000001`,
        `2026-01-15T11:58:59Z\tINFO\trequest started ⏎ user=42 agent=curl\t${TRACE_NESTED}\t${MULTILINE_LOG}`,
        "",
      ].join("\n"),
    );
    const [req] = api.requestsTo(EVENTS);
    expect(req?.query.get("dataset")).toBe("logs");
    expect(req?.query.getAll("field")).toContain("timestamp_precise");
    expect(req?.query.get("sort")).toBe("-timestamp");
    expect(req?.query.get("per_page")).toBe("3");
    expect(req?.query.get("statsPeriod")).toBe("24h");
    expect(req?.query.getAll("project")).toEqual(["300001"]);
  });

  test("a known target costs one request (project id cached by the first run)", async () => {
    const configDir = tempDir();
    await run(["acme/web", "--json"], { configDir });
    api.reset();
    const r = await run(["acme/web", "--json"], { configDir });
    expect(r.exitCode).toBe(0);
    expect(api.requests.map((q) => q.path)).toEqual([EVENTS]);
    expect(JSON.parse(r.stdout).data).toHaveLength(100);
  });

  test("--json: {data, hasMore, nextCursor}; nanoseconds beyond 2^53 kept exactly as text", async () => {
    const r = await run(["acme/web", "-n", "2", "--json"]);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(["data", "hasMore", "nextCursor"]);
    expect(doc).toMatchObject({ hasMore: true, nextCursor: "0:2:0" });
    expect(doc.data[0]).toEqual({
      id: NEWEST_WEB_LOG,
      timestamp: "2026-01-15T11:58:59+00:00",
      timestampPrecise: "1768478339985109000",
      severity: "info",
      severityNumber: 9,
      message: "GET /api/users 200 in 245ms",
      traceId: TRACE_NESTED,
      spanId: expect.stringMatching(/^[0-9a-f]{16}$/),
      project: "web",
      projectId: "300001",
    });
    // A double would have rounded this one (1768478339767109001 is not representable).
    expect(doc.data[1].timestampPrecise).toBe("1768478339767109001");
  });

  test("-n 250 over acme/ (project=-1) pages by 100 until the end; -n out of range is a validation error before any request", async () => {
    const r = await run(["acme/", "-n", "250", "--json"]);
    expect(JSON.parse(r.stdout).data).toHaveLength(WEB_LOG_COUNT + 20);
    expect(api.requestsTo(EVENTS).map((q) => q.query.get("per_page"))).toEqual(["100", "100"]);
    expect(api.requestsTo(EVENTS).every((q) => q.query.get("project") === "-1")).toBe(true);
    api.reset();
    for (const bad of ["0", "1001", "x"]) {
      const b = await run(["acme/web", "-n", bad]);
      expect(b.exitCode).toBe(21);
      expect(b.stderr).toContain("--limit");
    }
    expect(api.requests).toEqual([]);
  });

  test("-q, --trace, -s oldest, -t are sent as query, sort and statsPeriod", async () => {
    const r = await run([
      "acme/web",
      "-q",
      "slow",
      "--trace",
      TRACE_NESTED,
      "-s",
      "oldest",
      "-t",
      "2h",
      "--json",
    ]);
    expect(r.exitCode).toBe(0);
    const req = api.requestsTo(EVENTS)[0];
    expect(req?.query.get("query")).toBe(`trace:${TRACE_NESTED} slow`);
    expect(req?.query.get("sort")).toBe("timestamp");
    expect(req?.query.get("statsPeriod")).toBe("2h");
    expect(JSON.parse(r.stdout).data.map((l: { message: string }) => l.message)).toEqual([
      "slow query: users",
    ]);
    const bad = await run(["acme/web", "--trace", "aaaa1111"]);
    expect(bad.exitCode).toBe(21);
    expect(bad.stderr).toContain("Invalid trace ID");
  });

  test("-c last continues where the previous page ended, then says the end was reached", async () => {
    const configDir = tempDir();
    await run(["acme/api", "-n", "15", "--json"], { configDir });
    const next = await run(["acme/api", "-n", "15", "-c", "last", "--json"], { configDir });
    expect(api.requestsTo(EVENTS).map((q) => q.query.get("cursor"))).toEqual([null, "0:15:0"]);
    expect(JSON.parse(next.stdout)).toMatchObject({ hasMore: false });
    expect(JSON.parse(next.stdout).data).toHaveLength(6);
    const past = await run(["acme/api", "-n", "15", "-c", "last", "--json"], { configDir });
    expect(JSON.parse(past.stdout)).toEqual({ data: [], hasMore: false });
  });

  test("terminal: header, 8-character trace, one line per log even for a 1 MB multi-line body", async () => {
    addLog(api.state, "f".repeat(32), 1_000, { message: `${"x".repeat(500_000)}\n${"y".repeat(500_000)}` });
    try {
      const r = await run(["acme/web", "-n", "3"], { terminal: { stdout: true }, env: { COLUMNS: "90" } });
      expect(r.exitCode).toBe(0);
      const lines = r.stdout.trimEnd().split("\n");
      expect(lines[0]).toMatch(/^TIME {17}SEVERITY {2}MESSAGE +TRACE {5}ID$/);
      expect(lines).toHaveLength(4);
      for (const l of lines) expect(Bun.stringWidth(l)).toBeLessThanOrEqual(90);
      // The whole log id: what `tracker log view` takes.
      expect(lines[1]).toMatch(/^2026-01-15 11:59:59 {2}INFO {6}x+… {2}aaaa1111 {2}f{32}$/);
      expect(r.stderr).toContain("Showing 3 logs from acme/web");
    } finally {
      api.state.store.delete("logs");
    }
  });

  test("--fields, --jq, --format md and --max-chars shape the document; errors are JSON with --json", async () => {
    const f = await run(["acme/web", "-n", "2", "--json", "--fields", "id,severity"]);
    expect(JSON.parse(f.stdout).data).toEqual([
      { id: NEWEST_WEB_LOG, severity: "info" },
      { id: "10900000000000000000000000000001", severity: "warn" },
    ]);
    const jq = await run(["acme/web", "-n", "2", "--json", "--jq", ".data[].severity"]);
    expect(jq.stdout).toBe("info\nwarn\n");
    const md = await run(["acme/web", "-n", "1", "--json", "--format", "md"]);
    expect(md.stdout).toStartWith("1 item (more: pass nextCursor)\n|");
    expect(md.stdout).toContain(`| ${TRACE_NESTED} |`);
    const small = await run(["acme/web", "-n", "50", "--json", "--max-chars", "600"]);
    expect(small.stdout.length).toBeLessThanOrEqual(601);
    const bad = await run(["acme/web", "-q", 'message:"open', "--json"]);
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stdout).toBe("");
    expect(JSON.parse(bad.stderr).error.message).toBeDefined();
  });

  test("an empty result is success with a note on stderr", async () => {
    const r = await run(["acme/web", "-q", "nothing-matches-this"], { terminal: { stderr: true } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("No logs found in acme/web matching");
  });
});
