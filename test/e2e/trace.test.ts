import { describe, expect, test } from "bun:test";
import { TRACE_GLOBEX, TRACE_NESTED } from "../fake-api/routes/traces.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const EVENTS = "/api/0/organizations/acme/events/";

const api = useFakeApi();

describe("trace list (real CLI)", () => {
  test("--json -n 250: three requests of 100/100/50, one JSON document, nothing on stderr", async () => {
    const r = await runCli(["trace", "list", "acme/web", "-n", "250", "--json"], { api, token: USER_TOKEN });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(["data", "hasMore", "nextCursor"]);
    expect(doc.data).toHaveLength(250);
    expect(doc).toMatchObject({ nextCursor: "0:250:0", hasMore: true });
    expect(doc.data[0]).toMatchObject({ traceId: TRACE_NESTED, durationMs: 245, project: "web" });
    expect(api.requestsTo(EVENTS).map((q) => q.query.get("per_page"))).toEqual(["100", "100", "50"]);
  });

  test("-t/--period like issue list: sent as statsPeriod, named in the footer and the next-page hint", async () => {
    const r = await runCli(["trace", "list", "acme/web", "-t", "24h", "-n", "2"], {
      api,
      token: USER_TOKEN,
      terminal: { stderr: true },
      env: { NO_COLOR: "1" },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split("\n")).toHaveLength(3);
    expect(r.stderr).toStartWith(
      "Showing 2 traces from acme/web (newest first, last 24h). More available; next page:\n" +
        "  tracker trace list acme/web -t 24h -n 2 -c last\n",
    );
    const long = await runCli(["trace", "list", "acme/web", "--period", "2w", "--json"], {
      api,
      token: USER_TOKEN,
    });
    expect(long.exitCode).toBe(0);
    expect(api.requestsTo(EVENTS).map((q) => q.query.get("statsPeriod"))).toEqual(["24h", "2w"]);
    for (const bad of ["90x", "0d", "week"]) {
      const b = await runCli(["trace", "list", "acme/web", "-t", bad], { api, token: USER_TOKEN });
      expect(b.exitCode).toBe(21);
      expect(b.stdout).toBe("");
      expect(b.stderr).toStartWith("Error: ");
      expect(b.stderr).toContain("--period must be");
    }
    expect(api.requestsTo(EVENTS)).toHaveLength(2);
  });

  test("piped rows, then -c last in a new process, then trace view of a prefix from the rows", async () => {
    const configDir = tempDir();
    // stdout piped, stderr on a terminal: rows for the script, the footer for the person.
    const first = await runCli(["trace", "list", "acme/web", "-n", "2"], {
      api,
      token: USER_TOKEN,
      configDir,
      terminal: { stderr: true },
      env: { NO_COLOR: "1" },
    });
    expect(first.exitCode).toBe(0);
    expect(first.stdout).toBe(
      [
        `${TRACE_NESTED}\tGET /api/users\t245\t2026-01-15T11:59:00Z`,
        "eeee0000111122223333444455556666\tGET /checkout\t512\t2026-01-15T11:50:00Z",
        "",
      ].join("\n"),
    );
    expect(first.stderr).toBe(
      "Showing 2 traces from acme/web (newest first, last 7d). More available; next page:\n" +
        "  tracker trace list acme/web -n 2 -c last\n" +
        "View a trace: tracker trace view <TRACE ID>\n",
    );
    const next = await runCli(["trace", "list", "acme/web", "-n", "2", "-c", "last"], {
      api,
      token: USER_TOKEN,
      configDir,
    });
    expect(next.exitCode).toBe(0);
    expect(next.stdout.split("\n")[0]).toStartWith("cafe0000111122223333444455556666\tPOST /api/orders");
    expect(next.stderr).toBe("");
    expect(api.requestsTo(EVENTS).map((q) => q.query.get("cursor"))).toEqual([null, "0:2:0"]);
    const v = await runCli(["trace", "view", "aaaa1111"], { api, token: USER_TOKEN, configDir });
    expect(v.stderr).toBe("");
    expect(v.exitCode).toBe(0);
    expect(v.stdout.split("\n").slice(0, 7)).toEqual([
      `Trace ${TRACE_NESTED} (acme)`,
      "GET /api/users · 245ms · 14 spans · 0 errors · projects: web, api",
      "Started 2026-01-15T11:58:59Z",
      "",
      "DURATION      SELF  SPAN",
      "   245ms      37ms  http.server  GET /api/users  [web]",
      "     3ms            ├─ middleware.express  corsMiddleware",
    ]);
  });

  test.each([
    [["-n", "0"], 21, "Error: --limit must be from 1 to 1000, got 0.\n"],
    [["-n", "1001"], 21, "Error: --limit must be from 1 to 1000, got 1001.\n"],
    [["-n", "abc"], 21, "Error: --limit must be a whole number from 1 to 1000, got 'abc'.\n"],
    [["-c", "bogus"], 21, "Error: --cursor must be 'last' or a cursor like 0:100:0, got 'bogus'.\n"],
    [["-s", "size"], 21, "Error: 'size' is not one of date, duration for tracker trace list."],
  ])("bad flag %p → exit %d before any request", async (extra, code, message) => {
    const r = await runCli(["trace", "list", "acme/web", ...extra], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(code);
    expect(r.stdout).toBe("");
    expect(r.stderr).toStartWith(message);
    expect(api.requests).toEqual([]);
  });

  test("without a token: exit 10 and no request", async () => {
    const r = await runCli(["trace", "list", "acme/web"], { api });
    expect(r.exitCode).toBe(10);
    expect(api.requests).toEqual([]);
  });
});

describe("trace view (real CLI)", () => {
  test("unknown trace: exit 23 naming the org; --json prints nothing on stdout", async () => {
    const r = await runCli(["trace", "view", TRACE_GLOBEX, "acme", "--json"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(23);
    expect(r.stdout).toBe("");
    expect(JSON.parse(r.stderr).error).toMatchObject({
      class: "ResolutionError",
      code: 23,
      message: `Trace ${TRACE_GLOBEX} was not found in organization 'acme'.`,
    });
  });

  test("malformed id: exit 21", async () => {
    const r = await runCli(["trace", "view", "xyz", "acme"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(21);
    expect(r.stderr).toStartWith("Error: Invalid trace ID 'xyz'");
    expect(api.requests).toEqual([]);
  });

  test("--help documents the JSON shape", async () => {
    const r = await runCli(["trace", "view", "--help"], {});
    expect(r.exitCode).toBe(0);
    for (const key of [
      "spanId",
      "parentSpanId",
      "op",
      "description",
      "startTimestamp",
      "selfTimeMs",
      "errors",
      "children",
    ]) {
      expect(r.stdout).toContain(`"${key}"`);
    }
  });
});
