/**
 * `tracker status` ("my plate", issue #24): per organization, issues assigned to me or my teams,
 * regressed issues and issues new since the last run, from three searches sent together.
 * The fake adds latency so that requests sent together all arrive before any is answered, and
 * counts round trips as test/e2e/round-trips.test.ts does.
 */
import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { FAKE_NOW_MS } from "../fake-api/clock.ts";
import { addIssue, seedMyPlate } from "../fake-api/routes/issues.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, runInProcess, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

let plate: ReturnType<typeof seedMyPlate>;
const api = useFakeApi({
  latencyMs: 25,
  setup: (state) => {
    plate = seedMyPlate(state);
  },
});

const SEARCH = /^\/api\/0\/organizations\/([^/]+)\/issues\/$/;
const searches = () => api.requests.filter((r) => SEARCH.test(r.path));
const rounds = () => Math.max(0, ...api.requests.map((r) => r.round));
const queriesOf = (org: string) =>
  searches()
    .filter((r) => r.path === `/api/0/organizations/${org}/issues/`)
    .map((r) => r.query.get("query"))
    .sort();
const HOUR_MS = 3_600_000;

/** Runs the CLI in-process at a fixed time (the remembered time depends on the clock). */
async function run(args: string[], configDir: string, nowMs = FAKE_NOW_MS) {
  api.reset();
  const env: Record<string, string> = {};
  for (const [k, val] of Object.entries(process.env))
    if (val !== undefined && !k.startsWith("TRACKER_")) env[k] = val;
  delete env.NO_COLOR;
  Object.assign(env, {
    TRACKER_CONFIG_DIR: configDir,
    TRACKER_URL: api.url,
    TRACKER_AUTH_TOKEN: USER_TOKEN,
    TRACKER_PAGER: "",
  });
  const r = await runInProcess(args, { env, cwd: configDir, now: () => nowMs });
  expect({ args, exitCode: r.exitCode, stderr: r.stderr }).toEqual({ args, exitCode: 0, stderr: "" });
  return r;
}

const Issue = v.looseObject({
  shortId: v.string(),
  title: v.string(),
  count: v.number(),
  lastSeen: v.nullable(v.string()),
});
const Section = v.strictObject({ issues: v.array(Issue), total: v.optional(v.number()) });
const Status = v.strictObject({
  data: v.array(
    v.strictObject({
      org: v.string(),
      since: v.string(),
      assigned: Section,
      regressed: Section,
      new: Section,
    }),
  ),
  errors: v.optional(v.array(v.strictObject({ org: v.string(), message: v.string() }))),
});
const ids = (s: v.InferOutput<typeof Section>) => s.issues.map((i) => i.shortId);

describe("status", () => {
  test("one organization: its three searches in one round trip (region cached)", async () => {
    const dir = tempDir("tracker-cfg-");
    await run(["status", "acme", "--json", "--mark-seen"], dir);
    const r = await run(["status", "acme", "--json"], dir);
    expect(rounds()).toBe(1);
    expect(searches().map((s) => `${s.round} ${s.host}`)).toEqual(["1 us", "1 us", "1 us"]);
    expect(api.requests).toHaveLength(3);
    const since = new Date(FAKE_NOW_MS).toISOString().slice(0, 19);
    expect(queriesOf("acme")).toEqual([
      "is:unresolved assigned:[me, my_teams]",
      `is:unresolved firstSeen:>=${since}`,
      "is:unresolved is:regressed",
    ]);
    const doc = v.parse(Status, JSON.parse(r.stdout));
    expect(doc.data.map((d) => d.org)).toEqual(["acme"]);
    const [acme] = doc.data;
    if (!acme) throw new Error("no acme");
    // Assigned to me (WEB-1, API-2) or my team (WEB-3), not to a team I am not in (WEB-4).
    expect(ids(acme.assigned).sort()).toEqual([...plate.acme.assigned].sort());
    expect(acme.assigned.total).toBe(3);
    // Regressed in my projects (not in worker, which I am not a member of).
    expect(ids(acme.regressed).sort()).toEqual([...plate.acme.regressed].sort());
    expect(acme.since).toBe(new Date(FAKE_NOW_MS).toISOString());
  });

  test("several organizations from the cached list: nine searches, all in one round trip", async () => {
    const dir = tempDir("tracker-cfg-");
    await run(["org", "list", "--json"], dir);
    const r = await run(["status", "--json"], dir);
    expect(rounds()).toBe(1);
    expect(searches()).toHaveLength(9);
    expect(api.requests.every((q) => SEARCH.test(q.path) && q.round === 1)).toBe(true);
    expect(new Set(searches().map((s) => `${s.host} ${s.path}`))).toEqual(
      new Set([
        "us /api/0/organizations/acme/issues/",
        "de /api/0/organizations/globex/issues/",
        "us /api/0/organizations/initech/issues/",
      ]),
    );
    const doc = v.parse(Status, JSON.parse(r.stdout));
    expect(doc.data.map((d) => d.org)).toEqual(["acme", "globex", "initech"]);
    expect(ids(doc.data[1]?.assigned as v.InferOutput<typeof Section>)).toEqual(plate.globex.assigned);
  });

  test("no organization named and none cached: the organizations are listed first", async () => {
    const dir = tempDir("tracker-cfg-");
    await run(["status", "--json"], dir);
    const last = rounds();
    expect(last).toBeLessThanOrEqual(3);
    expect(searches()).toHaveLength(9);
    expect(searches().every((s) => s.round === last)).toBe(true);
  });

  test("the time of the last run is remembered per organization", async () => {
    const dir = tempDir("tracker-cfg-");
    const t1 = FAKE_NOW_MS - 2 * HOUR_MS;
    const first = await run(["status", "acme", "--json", "--mark-seen"], dir, t1);
    const day = new Date(t1 - 24 * HOUR_MS).toISOString();
    expect(JSON.parse(first.stdout).data[0].since).toBe(day);
    expect(queriesOf("acme")).toContain(`is:unresolved firstSeen:>=${day.slice(0, 19)}`);
    // An issue first seen after the first run is new on the second one.
    const fresh = addIssue(api.state, "acme", "api", {
      firstSeen: t1 + HOUR_MS,
      lastSeen: t1 + HOUR_MS,
      status: "unresolved",
    });
    const second = await run(["status", "acme", "globex", "--json", "--mark-seen"], dir);
    expect(queriesOf("acme")).toContain(
      `is:unresolved firstSeen:>=${new Date(t1).toISOString().slice(0, 19)}`,
    );
    // globex has not been looked at before: its window is the last 24 hours.
    const globexSince = new Date(FAKE_NOW_MS - 24 * HOUR_MS).toISOString().slice(0, 19);
    expect(queriesOf("globex")).toContain(`is:unresolved firstSeen:>=${globexSince}`);
    const doc = v.parse(Status, JSON.parse(second.stdout));
    const news = doc.data[0]?.new as v.InferOutput<typeof Section>;
    expect(ids(news)).toContain(fresh.shortId);
    for (const i of news.issues) expect(Date.parse(String(i.firstSeen))).toBeGreaterThanOrEqual(t1);
    // The third run starts where the second one asked.
    await run(["status", "acme", "--json"], dir, FAKE_NOW_MS + HOUR_MS);
    expect(queriesOf("acme")).toContain(
      `is:unresolved firstSeen:>=${new Date(FAKE_NOW_MS).toISOString().slice(0, 19)}`,
    );
  });

  test("reading is not seeing: --json and piped runs never move the marker, --since asks for a window", async () => {
    const dir = tempDir("tracker-cfg-");
    const day = new Date(FAKE_NOW_MS - 24 * HOUR_MS).toISOString().slice(0, 19);
    await run(["status", "acme", "--json"], dir, FAKE_NOW_MS - 2 * HOUR_MS);
    await run(["status", "acme"], dir, FAKE_NOW_MS - HOUR_MS);
    await run(["status", "acme", "--json"], dir);
    // Neither the JSON read nor the piped one counted as seeing: still the first run's window.
    expect(queriesOf("acme")).toContain(`is:unresolved firstSeen:>=${day}`);
    await run(["status", "acme", "--json", "--since", "3h"], dir);
    const threeHours = new Date(FAKE_NOW_MS - 3 * HOUR_MS).toISOString().slice(0, 19);
    expect(queriesOf("acme")).toContain(`is:unresolved firstSeen:>=${threeHours}`);
    await run(["status", "acme", "--json", "--since", "2026-01-15T09:00"], dir);
    expect(
      queriesOf("acme").some((q) => q?.startsWith("is:unresolved firstSeen:>=2026-01-15T09:00:00")),
    ).toBe(true);
    await run(["status", "acme", "--json"], dir);
    expect(queriesOf("acme")).toContain(`is:unresolved firstSeen:>=${day}`);
  });

  test("an interactive run on a terminal moves the marker", async () => {
    const dir = tempDir("tracker-cfg-");
    const t1 = FAKE_NOW_MS - 2 * HOUR_MS;
    api.reset();
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? "",
      TRACKER_CONFIG_DIR: dir,
      TRACKER_URL: api.url,
      TRACKER_AUTH_TOKEN: USER_TOKEN,
      TRACKER_PAGER: "",
      NO_COLOR: "1",
    };
    const r = await runInProcess(["status", "acme"], {
      env,
      cwd: dir,
      now: () => t1,
      isStdoutTTY: true,
      isStderrTTY: true,
      isStdinTTY: true,
      terminalWidth: 100,
    });
    expect(r.exitCode).toBe(0);
    await run(["status", "acme", "--json"], dir);
    expect(queriesOf("acme")).toContain(
      `is:unresolved firstSeen:>=${new Date(t1).toISOString().slice(0, 19)}`,
    );
  });

  test("--since in the future or unreadable is a usage error", async () => {
    const dir = tempDir("tracker-cfg-");
    for (const bad of ["2999-01-01", "yesterday", "5x"]) {
      const r = await runInProcess(["status", "acme", "--since", bad], {
        env: { TRACKER_CONFIG_DIR: dir, TRACKER_URL: api.url, TRACKER_AUTH_TOKEN: USER_TOKEN },
        cwd: dir,
        now: () => FAKE_NOW_MS,
      });
      expect(r.exitCode).not.toBe(0);
      expect(r.stderr).toContain("--since must be a time ago");
    }
    expect(api.requests).toEqual([]);
  });

  test("empty sections each say so on a terminal; piped, there are no rows", async () => {
    const dir = tempDir("tracker-cfg-");
    const piped = await run(["status", "initech"], dir);
    expect(piped.stdout).toBe("");
    const since = new Date(FAKE_NOW_MS - 24 * HOUR_MS).toISOString().slice(0, 19);
    const r = await runInProcess(["status", "initech"], {
      env: {
        PATH: process.env.PATH ?? "",
        TRACKER_CONFIG_DIR: dir,
        TRACKER_URL: api.url,
        TRACKER_AUTH_TOKEN: USER_TOKEN,
        TRACKER_PAGER: "",
        NO_COLOR: "1",
        CI: "1",
      },
      cwd: dir,
      now: () => FAKE_NOW_MS,
      isStdoutTTY: true,
      terminalWidth: 100,
    });
    expect(r.stdout).toBe(
      [
        "initech: assigned to you or your teams",
        "  Nothing assigned to you.",
        "",
        "initech: regressed",
        "  Nothing regressed.",
        "",
        `initech: new since ${since}Z`,
        `  No new issues since ${since}Z.`,
        "",
      ].join("\n"),
    );
  });

  test("piped: rows only, organization and section first (status | cut -f3 is the issue IDs)", async () => {
    const dir = tempDir("tracker-cfg-");
    const r = await run(["status", "acme"], dir);
    const rows = r.stdout.trimEnd().split("\n");
    expect(rows.length).toBeGreaterThan(2);
    for (const row of rows) {
      const cells = row.split("\t");
      expect(cells).toHaveLength(6);
      expect(cells[0]).toBe("acme");
      expect(["assigned", "regressed", "new"]).toContain(cells[1] as string);
      expect(cells[2]).toMatch(/^[A-Z][A-Z0-9-]*-[A-Z0-9]+$/);
    }
    expect(
      rows
        .filter((row) => row.split("\t")[1] === "assigned")
        .map((row) => row.split("\t")[2])
        .sort(),
    ).toEqual([...plate.acme.assigned].sort());
  });

  test("terminal: a table per section with ID, title, events and last seen", async () => {
    const r = await runCli(["status", "globex"], {
      api,
      token: USER_TOKEN,
      terminal: { stdout: true, stderr: true },
      env: { NO_COLOR: "1", COLUMNS: "100" },
    });
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toBe("globex: assigned to you or your teams (1)");
    expect(lines[1]).toMatch(/^ID\s+TITLE\s+EVENTS\s+LAST SEEN$/);
    expect(lines[2]).toMatch(/^BILLING-1\s+\S.*\s+\d+\s+\S+ ago$/);
    expect(lines).toContain("  Nothing regressed.");
  });

  test("an organization that fails is reported; the others are shown", async () => {
    const dir = tempDir("tracker-cfg-");
    api.inject({
      path: "/api/0/organizations/globex/issues/",
      status: 403,
      body: { detail: "No access" },
      times: 3,
    });
    const r = await runCli(["status", "acme", "globex", "--json"], {
      api,
      token: USER_TOKEN,
      configDir: dir,
    });
    expect(r.exitCode).toBe(0);
    const doc = v.parse(Status, JSON.parse(r.stdout));
    expect(doc.data.map((d) => d.org)).toEqual(["acme"]);
    expect(doc.errors?.map((e) => e.org)).toEqual(["globex"]);
    expect(r.stderr).toContain("Could not read the status of globex");
  });
});
