import { describe, expect, test } from "bun:test";
import { FAKE_NOW_MS } from "../fake-api/clock.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, runOnTerminal, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const SERIES = "/api/0/organizations/acme/events-timeseries/";
const api = useFakeApi();

/** stdout and stderr on a terminal, the fake's clock as "now". */
const onTerminal = (args: string[], configDir?: string) =>
  runOnTerminal(args, { api, token: USER_TOKEN, configDir, now: FAKE_NOW_MS });

describe("query --interval (real CLI)", () => {
  test("one sparkline per aggregate with min, max and total (units from the series); one request", async () => {
    const configDir = tempDir();
    const warmUp = await runCli(["org", "view", "acme", "--json"], { api, token: USER_TOKEN, configDir });
    expect(warmUp.exitCode).toBe(0);
    api.reset();
    const r = await onTerminal(
      [
        "query",
        "acme/",
        "--dataset",
        "spans",
        "-F",
        "count()",
        "-F",
        "avg(span.duration)",
        "--interval",
        "1h",
      ],
      configDir,
    );
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toMatch(/^SERIES {14}VALUES {23}MIN +MAX +TOTAL$/);
    expect(lines[1]).toMatch(/^count\(\) {13}[▁▂▃▄▅▆▇█]{24} +\d+ +\d+ +\d[\d,]*$/);
    expect(lines[2]).toMatch(
      // An average's buckets do not add up: no total.
      /^avg\(span\.duration\) {2}[▁▂▃▄▅▆▇█]{24} +[\d,]+ ms +[\d,.]+ (ms|s) +-$/,
    );
    expect(r.stderr).toBe("2 series of 24 buckets from acme/ (spans, last 24h, every 1h).\n");
    expect(api.requests).toHaveLength(1);
    const q = api.requestsTo(SERIES)[0]?.query as URLSearchParams;
    expect(q.getAll("yAxis")).toEqual(["count()", "avg(span.duration)"]);
    expect([q.get("interval"), q.get("statsPeriod"), q.get("project"), q.get("groupBy")]).toEqual([
      "3600",
      "24h",
      "-1",
      null,
    ]);
  });

  test("piped: every bucket drawn, plain numbers; the bars follow the values", async () => {
    const r = await runCli(
      ["query", "acme/web", "--dataset", "errors", "-F", "count()", "--interval", "6h"],
      {
        api,
        token: USER_TOKEN,
      },
    );
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    const json = await runCli(
      ["query", "acme/web", "--dataset", "errors", "-F", "count()", "--interval", "6h", "--json"],
      { api, token: USER_TOKEN },
    );
    const values: number[] = JSON.parse(json.stdout).timeSeries[0].values.map(
      (p: { value: number }) => p.value,
    );
    const [label, bars, min, max, total] = r.stdout.trimEnd().split("\t");
    expect(label).toBe("count()");
    expect([...(bars as string)]).toHaveLength(values.length);
    expect(Number(min)).toBe(Math.min(...values));
    expect(Number(max)).toBe(Math.max(...values));
    expect(Number(total)).toBe(values.reduce((a, b) => a + b, 0));
    const top = values.indexOf(Math.max(...values));
    expect([...(bars as string)][top]).toBe("█");
  });

  test("--json is the service's series data; plain fields become groupBy with topEvents ≤ 10", async () => {
    const r = await runCli(
      [
        "query",
        "acme/web",
        "--dataset",
        "spans",
        "-F",
        "span.op",
        "-F",
        "count()",
        "--interval",
        "1h",
        "-n",
        "3",
        "--json",
      ],
      { api, token: USER_TOKEN },
    );
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(["timeSeries", "meta"]);
    expect(doc.timeSeries).toHaveLength(4);
    expect(doc.timeSeries[0]).toMatchObject({
      yAxis: "count()",
      groupBy: [{ key: "span.op", value: "http.server" }],
      meta: { valueType: "integer", interval: 3_600_000, order: 0, isOther: false },
    });
    expect(doc.timeSeries[3].meta.isOther).toBe(true);
    expect(doc.timeSeries[0].values).toHaveLength(24);
    const q = api.requestsTo(SERIES)[0]?.query as URLSearchParams;
    expect([q.get("groupBy"), q.get("topEvents"), q.get("sort")]).toEqual(["span.op", "3", "-count()"]);
  });

  test("an unknown function in a series: the service's 400 detail, exit 30", async () => {
    const r = await runCli(
      ["query", "acme/web", "--dataset", "spans", "-F", "nosuch()", "--interval", "1h"],
      {
        api,
        token: USER_TOKEN,
      },
    );
    expect(r.exitCode).toBe(30);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("  Unknown function nosuch\n");
  });

  test("too many buckets: the service's 400", async () => {
    const r = await runCli(
      ["query", "acme/web", "--dataset", "spans", "-F", "count()", "--interval", "1s", "-t", "2w"],
      {
        api,
        token: USER_TOKEN,
      },
    );
    expect(r.exitCode).toBe(30);
    expect(r.stderr).toContain("Your interval and date range would create too many results.");
  });
});
