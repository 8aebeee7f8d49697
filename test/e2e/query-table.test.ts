import { describe, expect, test } from "bun:test";
import { FAKE_NOW_MS } from "../fake-api/clock.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, runOnTerminal, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const EVENTS = "/api/0/organizations/acme/events/";
const api = useFakeApi();

/** stdout and stderr on a terminal, the fake's clock as "now". */
const onTerminal = (args: string[], configDir?: string) =>
  runOnTerminal(args, { api, token: USER_TOKEN, configDir, now: FAKE_NOW_MS });

const P95 = ["-F", "transaction", "-F", "p95(span.duration)", "-F", "count()"];

describe("query: tables (real CLI)", () => {
  test("aggregates grouped by a field: right-aligned, ms with units; one request for a known target", async () => {
    const configDir = tempDir();
    const warmUp = await runCli(["project", "view", "acme/web", "--json"], {
      api,
      token: USER_TOKEN,
      configDir,
    });
    expect(warmUp.exitCode).toBe(0);
    api.reset();
    const r = await onTerminal(
      [
        "query",
        "acme/web",
        "--dataset",
        "spans",
        ...P95,
        "--sort=-count()",
        "-q",
        "is_transaction:true",
        "-n",
        "3",
      ],
      configDir,
    );
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      [
        "TRANSACTION           P95(SPAN.DURATION)  COUNT()",
        "GET /api/users                  2,279 ms       27",
        "PUT /api/cart                   2,243 ms       24",
        "DELETE /api/sessions            2,007 ms       22",
        "",
      ].join("\n"),
    );
    expect(r.stderr).toBe(
      "3 rows from acme/web (spans, last 24h). More: run the same command with -c last.\n",
    );
    expect(api.requests).toHaveLength(1);
    const q = api.requestsTo(EVENTS)[0]?.query as URLSearchParams;
    expect(q.getAll("field")).toEqual(["transaction", "p95(span.duration)", "count()"]);
    expect([
      q.get("dataset"),
      q.get("sort"),
      q.get("project"),
      q.get("per_page"),
      q.get("statsPeriod"),
    ]).toEqual(["spans", "-count()", "300001", "3", "24h"]);
    expect(q.get("query")).toBe("is_transaction:true");
  });

  test("<org>/ queries every project (project=-1) in one request; piped rows are plain numbers", async () => {
    const r = await runCli(
      [
        "query",
        "acme/",
        "--dataset",
        "errors",
        "-F",
        "release",
        "-F",
        "count()",
        "-F",
        "count_unique(issue)",
        "-t",
        "24h",
      ],
      { api, token: USER_TOKEN },
    );
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      [
        "web@2.4.0\t111\t60",
        "api@2.4.0\t111\t60",
        "mobile-app@2.4.0\t77\t38",
        "worker@2.4.0\t30\t15",
        "",
      ].join("\n"),
    );
    expect(api.requests.map((x) => x.path)).toEqual(["/api/0/organizations/acme/", EVENTS]);
    expect(api.requestsTo(EVENTS)[0]?.query.get("project")).toBe("-1");
  });

  test("plain fields only: rows as stored; explore is the same command", async () => {
    const r = await runCli(
      [
        "explore",
        "acme/web",
        "--dataset",
        "spans",
        "-F",
        "span.op",
        "-F",
        "span.duration",
        "-n",
        "2",
        "--json",
      ],
      { api, token: USER_TOKEN },
    );
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.data).toEqual([
      { "span.op": "http.server", "span.duration": 245 },
      { "span.op": "cache.get", "span.duration": 49 },
    ]);
    expect(doc.meta).toMatchObject({
      fields: { "span.op": "string", "span.duration": "duration" },
      units: { "span.op": null, "span.duration": "millisecond" },
      dataset: "spans",
    });
    expect(doc).toMatchObject({ hasMore: true, nextCursor: "0:2:0" });
  });

  test("an unknown aggregate: the service's 400 detail, exit 30", async () => {
    const r = await runCli(["query", "acme/web", "--dataset", "spans", "-F", "nosuch(span.duration)"], {
      api,
      token: USER_TOKEN,
    });
    expect(r.exitCode).toBe(30);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("Error: Request failed with status 400\n  Unknown function nosuch\n");
  });

  test("more than 20 fields: the service's message; --json errors are one JSON object", async () => {
    const fields = Array.from({ length: 21 }, (_, i) => ["-F", `tags[t${i}]`]).flat();
    const r = await runCli(["query", "acme/web", "--dataset", "spans", ...fields, "--json"], {
      api,
      token: USER_TOKEN,
    });
    expect(r.exitCode).toBe(30);
    expect(r.stdout).toBe("");
    const err = JSON.parse(r.stderr).error;
    expect(err).toMatchObject({ class: "ApiError", code: 30 });
    expect(JSON.stringify(err)).toContain("You can view up to 20 fields at a time.");
  });

  test("--fields / --jq / --format md / --max-chars apply to the document", async () => {
    const base = ["query", "acme/web", "--dataset", "errors", "-F", "level", "-F", "count()", "--json"];
    const jq = await runCli([...base, "--jq", '.data[] | "\\(.level)=\\(."count()")"'], {
      api,
      token: USER_TOKEN,
    });
    expect(jq.exitCode).toBe(0);
    expect(jq.stdout.trim().split("\n")[0]).toMatch(/^error=\d+$/);
    // A list wrapper's --fields apply to each row.
    const fields = await runCli([...base, "--fields", "level"], { api, token: USER_TOKEN });
    expect(fields.exitCode).toBe(0);
    for (const row of JSON.parse(fields.stdout).data) expect(Object.keys(row)).toEqual(["level"]);
    const md = await runCli([...base, "--format", "md"], { api, token: USER_TOKEN });
    expect(md.exitCode).toBe(0);
    expect(md.stdout).toContain("error");
    const short = await runCli([...base, "--max-chars", "300"], { api, token: USER_TOKEN });
    expect(short.exitCode).toBe(0);
    expect(short.stdout.length).toBeLessThanOrEqual(301);
  });

  test.each([
    [["--dataset", "metrics", "-F", "count()"], 21, "Error: 'metrics' is not one of errors, spans, logs"],
    [["--dataset", "spans"], 2, "Error: "],
    [["--dataset", "spans", "-F", "count()", "-s", "transaction"], 21, "Error: --sort must name a requested"],
    [["--dataset", "spans", "-F", "count()", "--interval", "0h"], 21, "Error: --interval must be"],
    [
      ["--dataset", "spans", "-F", "transaction", "--interval", "1h"],
      21,
      "Error: --interval draws aggregates",
    ],
    [["--dataset", "spans", "-F", "count()", "-n", "1001"], 21, "Error: --limit must be from 1 to 1000"],
  ])("bad flags %p → exit %d before any request", async (extra, code, message) => {
    const r = await runCli(["query", "acme/web", ...extra], { api, token: USER_TOKEN });
    expect(r.stderr).toStartWith(message);
    expect(r.exitCode).toBe(code);
    expect(r.stdout).toBe("");
    expect(api.requests).toEqual([]);
  });

  test("-s=-count() (the '-' after '=') sorts ascending-or-descending as written", async () => {
    const r = await runCli(
      ["query", "acme/web", "--dataset", "spans", "-F", "span.op", "-F", "count()", "-s=span.op"],
      { api, token: USER_TOKEN },
    );
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split("\n")[0]).toStartWith("cache.delete\t");
    expect(api.requestsTo(EVENTS)[0]?.query.get("sort")).toBe("span.op");
  });
});
