import { describe, expect, test } from "bun:test";
import { FAKE_NOW_MS } from "../fake-api/clock.ts";
import { TRACE_NESTED } from "../fake-api/routes/traces.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, runOnTerminal, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const EVENTS = "/api/0/organizations/acme/events/";
const api = useFakeApi();

/** A run with a warm cache (org region and project id known): the listing is one request. */
async function warm(configDir: string): Promise<void> {
  const r = await runCli(["project", "view", "acme/web", "--json"], { api, token: USER_TOKEN, configDir });
  expect(r.exitCode).toBe(0);
  api.reset();
}

/** stdout and stderr on a terminal, the fake's clock as "now" (relative times are fixed). */
const onTerminal = (args: string[], configDir: string) =>
  runOnTerminal(args, { api, token: USER_TOKEN, configDir, now: FAKE_NOW_MS });

describe("span list (real CLI)", () => {
  test("a known target is one request: the spans dataset, newest first, 7d, the limit as per_page", async () => {
    const configDir = tempDir();
    await warm(configDir);
    const r = await onTerminal(["span", "list", "acme/web", "-n", "4"], configDir);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      [
        "SPAN ID           OP           DESCRIPTION                            DURATION  TIME",
        "3221b129ec8fc225  http.server  GET /api/users                            245ms  1m ago",
        "93e7d02e870c864c  cache.get    users:org                                  49ms  1m ago",
        "890907ae31c6119b  db.query     SELECT * FROM users WHERE org_id = $1      98ms  1m ago",
        "c82e3e14b83f3f0e  http.server  GET /checkout                             512ms  10m ago",
        "",
      ].join("\n"),
    );
    expect(r.stderr).toBe(
      "Showing 4 spans from acme/web (newest first, last 7d). More available; next page:\n" +
        "  tracker span list acme/web -n 4 -c last\n",
    );
    expect(api.requests).toHaveLength(1);
    const q = api.requestsTo(EVENTS)[0]?.query as URLSearchParams;
    expect(q.get("dataset")).toBe("spans");
    expect(q.getAll("field")).toEqual([
      "id",
      "span.op",
      "span.description",
      "span.duration",
      "timestamp",
      "trace",
      "transaction",
      "project",
    ]);
    expect([q.get("project"), q.get("sort"), q.get("per_page"), q.get("statsPeriod")]).toEqual([
      "300001",
      "-timestamp",
      "4",
      "7d",
    ]);
  });

  test("-s duration piped: slowest first as TSV (ms as plain numbers, RFC 3339), nothing on stderr", async () => {
    const r = await runCli(["span", "list", "acme/web", "-s", "duration", "-n", "3", "-t", "2w"], {
      api,
      token: USER_TOKEN,
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      [
        "f400ace9f54fb947\thttp.server\tPOST /api/import\t9876\t2026-01-15T11:32:00Z",
        "aef073dfab151d8e\tdb.query\tSELECT 1\t3950\t2026-01-15T11:31:54Z",
        "5051ca9e6e28ef16\thttp.server\tDELETE /api/sessions\t2403\t2026-01-11T02:05:00Z",
        "",
      ].join("\n"),
    );
    const q = api.requestsTo(EVENTS)[0]?.query as URLSearchParams;
    expect([q.get("sort"), q.get("statsPeriod")]).toEqual(["-span.duration", "2w"]);
  });

  test("--trace and -q: one query; --json is the service's rows in the paging wrapper", async () => {
    const r = await runCli(
      ["span", "list", "acme/web", "--trace", TRACE_NESTED.toUpperCase(), "-q", "span.op:db.query", "--json"],
      { api, token: USER_TOKEN },
    );
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    const doc = JSON.parse(r.stdout);
    expect(doc).toEqual({
      data: [
        {
          id: "890907ae31c6119b",
          "span.op": "db.query",
          "span.description": "SELECT * FROM users WHERE org_id = $1",
          "span.duration": 98,
          timestamp: "2026-01-15T11:58:59+00:00",
          trace: TRACE_NESTED,
          transaction: "GET /api/users",
          project: "web",
        },
      ],
      hasMore: false,
    });
    expect(api.requestsTo(EVENTS)[0]?.query.get("query")).toBe(`trace:${TRACE_NESTED} span.op:db.query`);
  });

  test("-n 150 pages 100 + 50; -c last continues in a new run; past the end is an empty page", async () => {
    const configDir = tempDir();
    const first = await runCli(["span", "list", "acme/web", "-n", "150", "--json"], {
      api,
      token: USER_TOKEN,
      configDir,
    });
    expect(first.exitCode).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ hasMore: true, nextCursor: "0:150:0" });
    expect(api.requestsTo(EVENTS).map((q) => q.query.get("per_page"))).toEqual(["100", "50"]);
    api.reset();
    const next = await runCli(["span", "list", "acme/web", "-n", "150", "-c", "last"], {
      api,
      token: USER_TOKEN,
      configDir,
    });
    expect(next.exitCode).toBe(0);
    expect(next.stdout.split("\n")).toHaveLength(151);
    expect(api.requestsTo(EVENTS).map((q) => q.query.get("cursor"))).toEqual(["0:150:0", "0:250:0"]);
  });

  test("--fields, --jq, --format md and --max-chars shape the JSON", async () => {
    const run = (extra: string[]) =>
      runCli(["span", "list", "acme/web", "-n", "2", "--json", ...extra], { api, token: USER_TOKEN });
    const jq = await run(["--jq", ".data[].id"]);
    expect(jq.stdout).toBe("3221b129ec8fc225\n93e7d02e870c864c\n");
    const fields = await run(["--fields", "id"]);
    expect(JSON.parse(fields.stdout).data).toEqual([{ id: "3221b129ec8fc225" }, { id: "93e7d02e870c864c" }]);
    const md = await run(["--format", "md"]);
    expect(md.exitCode).toBe(0);
    expect(md.stdout).toContain("3221b129ec8fc225");
    const short = await run(["--max-chars", "200"]);
    expect(short.exitCode).toBe(0);
    expect(short.stdout.length).toBeLessThan(400);
  });

  test.each([
    [
      ["--trace", "xyz"],
      "Error: Invalid trace ID 'xyz': expected 32 hexadecimal characters (dashes of the UUID form allowed).\n",
    ],
    [["-n", "0"], "Error: --limit must be from 1 to 1000, got 0.\n"],
    [["-s", "size"], "Error: 'size' is not one of newest, duration for tracker span list."],
    [["-t", "90x"], "Error: --period must be"],
  ])("bad flag %p → exit 21 before any request", async (extra, message) => {
    const r = await runCli(["span", "list", "acme/web", ...extra], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(21);
    expect(r.stdout).toBe("");
    expect(r.stderr).toStartWith(message);
    expect(api.requests).toEqual([]);
  });

  test("errors: the service's 400 (exit 30, detail shown; JSON on stderr with --json)", async () => {
    api.inject({ path: EVENTS, status: 400, body: { detail: "Invalid query: span.duration:>abc" } });
    const r = await runCli(["span", "list", "acme/web", "--json"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(30);
    expect(r.stdout).toBe("");
    expect(JSON.parse(r.stderr).error).toMatchObject({ class: "ApiError", code: 30 });
    expect(r.stderr).toContain("Invalid query: span.duration:>abc");
  });

  test("nothing found: a tip on stderr, exit 0; --json an empty page", async () => {
    const r = await runCli(["span", "list", "acme/web", "-q", "span.op:nothing.here"], {
      api,
      token: USER_TOKEN,
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("No spans found in acme/web matching span.op:nothing.here in the last 7d.\n");
  });
});
