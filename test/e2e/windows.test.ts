/**
 * Absolute windows and environments on every list command (issue 34 "Windows and filters",
 * API.md §22.1-22.2): the exact `start`/`end`/`environment` parameters the service receives.
 */
import { describe, expect, test } from "bun:test";
import { FAKE_NOW_MS } from "../fake-api/clock.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, runInProcess, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const ISSUES = "/api/0/organizations/acme/issues/";
const EVENTS = "/api/0/organizations/acme/events/";
const ISSUE_EVENTS = "/api/0/organizations/acme/issues/4158/events/";

/** Runs in-process at the fake's clock (windows that end now need a fixed now). */
async function run(args: string[], opts: { configDir?: string; nowMs?: number; stderrTTY?: boolean } = {}) {
  const configDir = opts.configDir ?? tempDir("tracker-cfg-");
  const env: Record<string, string> = {};
  for (const [k, val] of Object.entries(process.env))
    if (val !== undefined && !k.startsWith("TRACKER_")) env[k] = val;
  Object.assign(env, {
    TRACKER_CONFIG_DIR: configDir,
    TRACKER_URL: api.url,
    TRACKER_AUTH_TOKEN: USER_TOKEN,
    TRACKER_PAGER: "",
    NO_COLOR: "1",
  });
  const tty = opts.stderrTTY ? { isStderrTTY: true } : {};
  return runInProcess(args, { env, cwd: configDir, now: () => opts.nowMs ?? FAKE_NOW_MS, ...tty });
}

/** The window and environment parameters of each request to `path`. */
function windowsSentTo(path: string) {
  return api.requestsTo(path).map((r) => ({
    statsPeriod: r.query.get("statsPeriod"),
    start: r.query.get("start"),
    end: r.query.get("end"),
    environment: r.query.getAll("environment"),
  }));
}

const abs = (start: string, end: string, environment: string[] = []) => ({
  statsPeriod: null,
  start,
  end,
  environment,
});

describe("--period with an absolute window", () => {
  // FAKE_NOW is 2026-01-15T12:00:00Z.
  test.each([
    ["2026-01-15T09:00..2026-01-15T10:30", "2026-01-15T09:00:00.000Z", "2026-01-15T10:30:00.000Z"],
    ["2026-01-10..2026-01-11", "2026-01-10T00:00:00.000Z", "2026-01-11T23:59:59.999Z"],
    [">=2026-01-10", "2026-01-10T00:00:00.000Z", "2026-01-15T12:00:00.000Z"],
    [">2026-01-10", "2026-01-11T00:00:00.000Z", "2026-01-15T12:00:00.000Z"],
    ["<=2026-01-10", "2025-10-12T23:59:59.999Z", "2026-01-10T23:59:59.999Z"],
    ["<2026-01-10", "2025-10-12T00:00:00.000Z", "2026-01-10T00:00:00.000Z"],
    ["2026-01-15T09:00+02:00..now", "2026-01-15T07:00:00.000Z", "2026-01-15T12:00:00.000Z"],
  ])("issue list -t %s", async (period, start, end) => {
    const r = await run(["issue", "list", "acme/web", "-t", period, "--json"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(windowsSentTo(ISSUES)).toEqual([abs(start, end)]);
  });

  test("a relative period is still statsPeriod, minutes included", async () => {
    const r = await run(["issue", "list", "acme/web", "-t", "30m", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(windowsSentTo(ISSUES)).toEqual([{ statsPeriod: "30m", start: null, end: null, environment: [] }]);
  });

  test("the window filters what the service returns (issues last seen inside it only)", async () => {
    const all = JSON.parse((await run(["issue", "list", "acme/web", "-n", "100", "--json"])).stdout).data;
    const since = "2026-01-15T11:00";
    const recent = await run(["issue", "list", "acme/web", "-n", "100", "-t", `${since}..now`, "--json"]);
    const got = JSON.parse(recent.stdout).data as { lastSeen: string }[];
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBeLessThan(all.length);
    for (const i of got) expect(Date.parse(i.lastSeen)).toBeGreaterThanOrEqual(Date.parse(`${since}:00Z`));
  });
});

describe("--start / --end", () => {
  test("issue events: a time ago, a lone --start ends now", async () => {
    const r = await run(["issue", "events", "acme/WEB-4Y", "--start", "-2h", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(windowsSentTo(ISSUE_EVENTS)).toEqual([
      abs("2026-01-15T10:00:00.000Z", "2026-01-15T12:00:00.000Z"),
    ]);
  });

  test("issue events: both ends in ISO 8601; a lone --end starts 90 days before", async () => {
    await run([
      "issue",
      "events",
      "acme/WEB-4Y",
      "--start",
      "2026-01-14",
      "--end",
      "2026-01-15T06:00Z",
      "--json",
    ]);
    await run(["issue", "events", "acme/WEB-4Y", "--end", "2026-01-14", "--json"]);
    expect(windowsSentTo(ISSUE_EVENTS)).toEqual([
      abs("2026-01-14T00:00:00.000Z", "2026-01-15T06:00:00.000Z"),
      abs("2025-10-16T23:59:59.999Z", "2026-01-14T23:59:59.999Z"),
    ]);
  });

  test.each([
    [["-t", "24h", "--start", "-1h"], "Use either --period (-t) or --start/--end, not both."],
    [["--start", "2026-01-15T11:00", "--end", "2026-01-15T10:00"], "The window must start before it ends"],
    [["--start", "yesterday"], "--start must be a time ago (-30m, -2h, -3d) or an ISO 8601 date/time"],
    [["-t", ">=2026-02-01"], "The window must start before it ends"],
    [["-t", "2026-01-10..soon"], "--period must be a duration (30m, 24h, 14d, 2w) or a window"],
  ])("%j is a usage error before any request", async (flags, message) => {
    const r = await run(["issue", "list", "acme/web", ...flags]);
    expect(r.exitCode).toBe(21);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(message);
    expect(api.requests).toEqual([]);
  });
});

describe("query-wide changes read the same window", () => {
  test("issue resolve -q … -t A..B --dry-run searches with start/end", async () => {
    const r = await run([
      "issue",
      "resolve",
      "-q",
      "is:unresolved",
      "acme/web",
      "-t",
      "2026-01-15T09:00..2026-01-15T12:00",
      "--dry-run",
      "--json",
    ]);
    expect(r.exitCode).toBe(0);
    expect(windowsSentTo(ISSUES)).toEqual([abs("2026-01-15T09:00:00.000Z", "2026-01-15T12:00:00.000Z")]);
    expect(api.requests.filter((q) => q.method === "PUT")).toEqual([]);
  });
});

describe("the events endpoint: trace, log and span list, query", () => {
  const W = ["--start", "2026-01-15T09:00", "--end", "2026-01-15T10:30"];
  const sent = () =>
    api.requestsTo(EVENTS).map((r) => ({
      dataset: r.query.get("dataset"),
      statsPeriod: r.query.get("statsPeriod"),
      start: r.query.get("start"),
      end: r.query.get("end"),
      environment: r.query.getAll("environment"),
      query: r.query.get("query"),
    }));

  test("start/end sent, statsPeriod not; environments as one search token, a user OR parenthesised", async () => {
    const env = ["-e", "production", "-e", "staging"];
    for (const args of [
      ["trace", "list", "acme/web", ...W, ...env, "--json"],
      ["log", "list", "acme/web", ...W, ...env, "-q", "a OR b", "--json"],
      ["span", "list", "acme/web", ...W, "-e", "production", "--json"],
      ["query", "acme/web", "--dataset", "spans", "-F", "count()", ...W, ...env, "--json"],
    ]) {
      const r = await run(args);
      expect({ args, exitCode: r.exitCode, stderr: r.stderr }).toEqual({ args, exitCode: 0, stderr: "" });
    }
    const win = { statsPeriod: null, start: "2026-01-15T09:00:00.000Z", end: "2026-01-15T10:30:00.000Z" };
    const calls = sent();
    expect(calls.map(({ dataset, query, environment }) => ({ dataset, query, environment }))).toEqual([
      { dataset: "spans", query: "is_transaction:true environment:[production,staging]", environment: [] },
      { dataset: "logs", query: "environment:[production,staging] (a OR b)", environment: [] },
      { dataset: "spans", query: "environment:production", environment: [] },
      { dataset: "spans", query: "environment:[production,staging]", environment: [] },
    ]);
    for (const c of calls) expect({ statsPeriod: c.statsPeriod, start: c.start, end: c.end }).toEqual(win);
  });

  test("query --interval takes the window too", async () => {
    const r = await run([
      "query",
      "acme/web",
      "--dataset",
      "spans",
      "-F",
      "count()",
      "--interval",
      "1h",
      ...W,
    ]);
    expect(r.exitCode).toBe(0);
    const ts = api.requestsTo("/api/0/organizations/acme/events-timeseries/");
    expect(ts.map((q) => [q.query.get("statsPeriod"), q.query.get("start"), q.query.get("end")])).toEqual([
      [null, "2026-01-15T09:00:00.000Z", "2026-01-15T10:30:00.000Z"],
    ]);
  });

  test("log list --follow refuses a fixed window", async () => {
    const r = await run(["log", "list", "acme/web", "-f", "-t", ">=2026-01-15"]);
    expect(r.exitCode).toBe(21);
    expect(r.stderr).toContain("--follow follows from now");
    expect(api.requests).toEqual([]);
  });
});

describe("--environment", () => {
  test("issue list and issue events: repeated environment= params, never comma-joined; rows of those only", async () => {
    const r = await run(["issue", "list", "acme/web", "-n", "1", "-e", "staging", "--json"]);
    const staging = JSON.parse(r.stdout).total as number;
    await run(["issue", "events", "acme/WEB-4Y", "-e", "production", "--environment", "staging", "--json"]);
    expect(windowsSentTo(ISSUES)).toEqual([
      { statsPeriod: "90d", start: null, end: null, environment: ["staging"] },
    ]);
    expect(windowsSentTo(ISSUE_EVENTS)[0]?.environment).toEqual(["production", "staging"]);
    // The service counts the matches (X-Hits): fewer in one environment than in all.
    const all = JSON.parse((await run(["issue", "list", "acme/web", "-n", "1", "--json"])).stdout)
      .total as number;
    expect(staging).toBeGreaterThan(0);
    expect(staging).toBeLessThan(all);
  });

  test("release list: environment= on the releases endpoint", async () => {
    const r = await runCli(["release", "list", "acme/web", "-e", "production", "--json"], {
      api,
      token: USER_TOKEN,
    });
    expect(r.exitCode).toBe(0);
    const calls = api.requests.filter((q) => q.path.endsWith("/releases/"));
    expect(calls.map((q) => q.query.getAll("environment"))).toEqual([["production"]]);
  });

  test("defaults set --environment applies when -e is absent; -e overrides it; defaults show names it", async () => {
    const configDir = tempDir("tracker-cfg-");
    const set = await run(["defaults", "set", "--environment", "production", "--json"], { configDir });
    expect(set.exitCode).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ environments: ["production"] });
    const show = await run(["defaults"], { configDir });
    expect(show.stdout).toContain("Environment:   production (default)\n");
    expect(JSON.parse((await run(["defaults", "--json"], { configDir })).stdout).environments).toEqual([
      "production",
    ]);
    // Setting a target keeps the environment.
    expect((await run(["defaults", "set", "acme/web"], { configDir })).exitCode).toBe(0);
    await run(["issue", "list", "--json"], { configDir });
    await run(["issue", "list", "acme/web", "-e", "staging", "--json"], { configDir });
    expect(windowsSentTo(ISSUES).map((c) => c.environment)).toEqual([["production"], ["staging"]]);
    expect((await run(["defaults", "clear"], { configDir })).exitCode).toBe(0);
    expect(JSON.parse((await run(["defaults", "--json"], { configDir })).stdout).environments).toEqual([]);
  });

  test("defaults set --here --environment is refused (the environment is a global default)", async () => {
    const r = await run(["defaults", "set", "--here", "acme/web", "--environment", "production"]);
    expect(r.exitCode).toBe(21);
    expect(r.stderr).toContain("--environment is a global default");
  });
});

describe("saved cursors and next-page hints carry the window and environments", () => {
  test("-c last continues only the same window and environments", async () => {
    const configDir = tempDir("tracker-cfg-");
    const W = ["-t", "2026-01-01..2026-01-15"];
    await run(["issue", "list", "acme/web", "-n", "2", ...W, "-e", "production", "--json"], { configDir });
    // Another environment, or another window, has no saved position: a usage error, nothing asked.
    const otherEnv = await run(["issue", "list", "acme/web", "-n", "2", ...W, "-c", "last"], { configDir });
    const otherWindow = await run(
      [
        "issue",
        "list",
        "acme/web",
        "-n",
        "2",
        "-t",
        "2026-01-01..2026-01-14",
        "-e",
        "production",
        "-c",
        "last",
      ],
      { configDir },
    );
    for (const r of [otherEnv, otherWindow]) {
      expect(r.exitCode).toBe(21);
      expect(r.stderr).toContain("No saved position to continue from");
    }
    await run(["issue", "list", "acme/web", "-n", "2", ...W, "-e", "production", "-c", "last", "--json"], {
      configDir,
    });
    expect(api.requestsTo(ISSUES).map((q) => q.query.get("cursor"))).toEqual([null, "0:2:0"]);
  });

  test("the hint repeats the window, quoted for the shell, and the -e flags", async () => {
    const r = await run(["trace", "list", "acme/web", "-n", "1", "-t", ">=2026-01-15"], { stderrTTY: true });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(
      "(newest first, 2026-01-15T00:00:00.000Z to 2026-01-15T12:00:00.000Z). More available; next page:\n" +
        "  tracker trace list acme/web -t '>=2026-01-15' -n 1 -c last\n",
    );
    const e = await run(["issue", "events", "acme/WEB-4Y", "-n", "1", "--start", "-1d", "-e", "production"], {
      stderrTTY: true,
    });
    expect(e.stderr).toContain(
      "More events: tracker issue events acme/WEB-4Y --start -1d -e production -c last\n",
    );
  });
});

describe("help", () => {
  test.each(["issue list", "issue events", "trace list", "log list", "span list", "query"])(
    "%s --help documents windows and environments",
    async (words) => {
      const r = await runCli([...words.split(" "), "--help"]);
      const text = r.stdout.replace(/\s+/g, " ");
      expect(text).toContain("--start <time>");
      expect(text).toContain("-e <name>");
      expect(text).toContain("2026-11-20T14:00..2026-11-20T15:30");
      expect(text).toContain("--environment (repeatable)");
    },
  );
});
