/**
 * Sequential round trips per command (issue #13), counted by the fake API: each request carries
 * the round it belongs to (requests sent together share one), so a command's highest round is
 * what a person waits for against a distant service. The fake adds latency so that requests sent
 * together all arrive before any is answered. No timings are asserted.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { setAutofixScenario } from "../fake-api/routes/autofix.ts";
import { seedIncident } from "../fake-api/routes/incidents.ts";
import { seedReplays } from "../fake-api/routes/replays.ts";
import { eventIdOf } from "../fake-api/routes/triage.ts";
import { dsnFor, USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi({ latencyMs: 25 });
const rounds = () => Math.max(0, ...api.requests.map((r) => r.round));
const byRound = () =>
  api.requests.map((r) => `${r.round} ${r.host} ${r.method} ${r.path}`).sort((a, b) => a.localeCompare(b));

async function run(args: string[], configDir: string, opts: { cwd?: string } = {}) {
  api.reset();
  const r = await runCli(args, { api, token: USER_TOKEN, configDir, ...opts });
  expect({ args, exitCode: r.exitCode, stderr: r.exitCode === 0 ? "" : r.stderr }).toEqual({
    args,
    exitCode: 0,
    stderr: "",
  });
  return r;
}

describe("org list", () => {
  test("cold: regions, then every region at once (2); warm: known regions and re-discovery at once (1)", async () => {
    const dir = tempDir("tracker-cfg-");
    await run(["org", "list", "--json"], dir);
    expect(byRound()).toEqual([
      "1 control GET /api/0/users/me/regions/",
      "2 de GET /api/0/organizations/",
      "2 us GET /api/0/organizations/",
    ]);
    const warm = await run(["org", "list", "--json"], dir);
    expect(byRound()).toEqual([
      "1 control GET /api/0/users/me/regions/",
      "1 de GET /api/0/organizations/",
      "1 us GET /api/0/organizations/",
    ]);
    expect(JSON.parse(warm.stdout).map((o: { slug: string }) => o.slug)).toEqual([
      "acme",
      "globex",
      "initech",
    ]);
    await run(["org", "list", "--json", "--fresh"], dir);
    expect(rounds()).toBe(2);
  });

  test("warm, with a region the cache did not know: that region is asked in a second round", async () => {
    const dir = tempDir("tracker-cfg-");
    await run(["org", "list", "--json"], dir);
    // Forget the orgs of one region, as if the user joined it after the last listing.
    const { createTestContext } = await import("../helpers/context.ts");
    const t = createTestContext({ api, configDir: dir });
    t.ctx.store.open().run("DELETE FROM org_regions WHERE region_url = ?", [api.urls.de]);
    t.ctx.store.close();
    const r = await run(["org", "list", "--json"], dir);
    expect(JSON.parse(r.stdout).map((o: { slug: string }) => o.slug)).toContain("globex");
    expect(byRound()).toEqual([
      "1 control GET /api/0/users/me/regions/",
      "1 us GET /api/0/organizations/",
      "2 de GET /api/0/organizations/",
    ]);
  });
});

describe("issue view and lists", () => {
  test("issue view warm: the issue, its latest event and links together, then suspects and deploys together (2)", async () => {
    const dir = tempDir("tracker-cfg-");
    await run(["issue", "view", "WEB-4Y", "--json"], dir);
    await run(["issue", "view", "WEB-4Y", "--json"], dir);
    expect(rounds()).toBe(2);
    await run(["issue", "view", "4001", "--json"], dir);
    await run(["issue", "view", "4001", "--json"], dir);
    expect(rounds()).toBe(2);
  });

  test("issue view of an incident warm: detail, latest event, links (1); committers and the first release's deploys (2)", async () => {
    const dir = tempDir("tracker-cfg-");
    const issue = seedIncident(api.state, "acme", "WEB-4Y");
    await run(["issue", "view", "acme/WEB-4Y", "--json"], dir);
    const r = await run(["issue", "view", "acme/WEB-4Y", "--json"], dir);
    expect(JSON.parse(r.stdout).firstRelease.version).toBe("web@1.5.0");
    expect(byRound()).toEqual([
      `1 us GET /api/0/organizations/acme/issues/${issue.id}/`,
      `1 us GET /api/0/organizations/acme/issues/${issue.id}/events/latest/`,
      `1 us GET /api/0/organizations/acme/issues/${issue.id}/integrations/`,
      `2 us GET /api/0/organizations/acme/releases/web%401.5.0/deploys/`,
      `2 us GET /api/0/projects/acme/web/events/${eventIdOf(issue, 0)}/committers/`,
    ]);
  });

  test("issue timeline of an incident warm: detail and activity (1); releases and the first release's deploys (2)", async () => {
    const dir = tempDir("tracker-cfg-");
    const issue = seedIncident(api.state, "acme", "WEB-4Y");
    await run(["issue", "timeline", "acme/WEB-4Y", "--json"], dir);
    const r = await run(["issue", "timeline", "acme/WEB-4Y", "--json"], dir);
    expect(JSON.parse(r.stdout).data.some((e: { kind: string }) => e.kind === "deploy")).toBe(true);
    expect(rounds()).toBe(2);
    expect(byRound().filter((l) => l.startsWith("2 "))).toContain(
      "2 us GET /api/0/organizations/acme/releases/web%401.5.0/deploys/",
    );
    expect(byRound().some((l) => l.includes(`/issues/${issue.id}/`))).toBe(true);
  });

  test("replay view warm: the replay and its recording together (1)", async () => {
    const dir = tempDir("tracker-cfg-");
    const [id] = seedReplays(api.state);
    await run(["replay", "view", id as string, "acme/web", "--json"], dir);
    await run(["replay", "view", id as string, "acme/web", "--json"], dir);
    expect(byRound()).toEqual([
      `1 us GET /api/0/projects/acme/web/replays/${id}/`,
      `1 us GET /api/0/projects/acme/web/replays/${id}/recording-segments/`,
    ]);
  });

  test("project view warm: the project and its keys together (1)", async () => {
    const dir = tempDir("tracker-cfg-");
    await run(["project", "view", "acme/web", "--json"], dir);
    const r = await run(["project", "view", "acme/web", "--json"], dir);
    expect(JSON.parse(r.stdout).dsn).toContain("@");
    expect(byRound()).toEqual([
      "1 us GET /api/0/projects/acme/web/",
      "1 us GET /api/0/projects/acme/web/keys/",
    ]);
  });

  test("issue list acme/web and trace list warm (1); -n 1000 pages one after another (10)", async () => {
    const dir = tempDir("tracker-cfg-");
    await run(["issue", "list", "acme/web", "--json"], dir);
    await run(["issue", "list", "acme/web", "--json"], dir);
    expect(rounds()).toBe(1);
    await run(["trace", "list", "acme/web", "--json"], dir);
    await run(["trace", "list", "acme/web", "--json"], dir);
    expect(rounds()).toBe(1);
    await run(["issue", "list", "acme/web", "-n", "1000", "--json"], dir);
    expect(rounds()).toBe(10);
  });

  test("issue list in a monorepo of 5 DSNs, empty state: at most 3", async () => {
    const root = tempDir("tracker-monorepo-");
    mkdirSync(join(root, ".git"));
    const projects: [string, string][] = [
      ["acme", "web"],
      ["acme", "api"],
      ["acme", "mobile-app"],
      ["globex", "web"],
      ["globex", "billing"],
    ];
    for (const [org, slug] of projects) {
      const p = api.state.projects.find((x) => x.org === org && x.slug === slug);
      if (!p) throw new Error(`no seeded project ${org}/${slug}`);
      const file = join(root, "packages", `${org}-${slug}`, ".env");
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `SENTRY_DSN=${dsnFor(api.state, p)}\n`);
    }
    await run(["issue", "list", "-n", "10", "--json"], tempDir("tracker-cfg-"), { cwd: root });
    const searched = api.requests.filter((r) => /^\/api\/0\/organizations\/[^/]+\/issues\/$/.test(r.path));
    expect(new Set(searched.map((r) => r.query.get("project"))).size).toBe(5);
    expect(rounds()).toBeLessThanOrEqual(3);
  });
});

describe("AI analysis", () => {
  test("explain and plan on a finished analysis, warm: one round trip", async () => {
    const dir = tempDir("tracker-cfg-");
    setAutofixScenario(api.state, "4005", { pollsPerStage: 1 });
    // The first plan runs the analysis to the end (and learns the reference); polls are not rounds of interest.
    await run(["issue", "plan", "acme/WEB-5", "--json"], dir);
    const warm = [
      "1 us GET /api/0/organizations/acme/issues/4005/",
      "1 us GET /api/0/organizations/acme/issues/4005/autofix/",
    ];
    await run(["issue", "explain", "acme/WEB-5", "--json"], dir);
    expect(byRound()).toEqual(warm);
    await run(["issue", "plan", "acme/WEB-5", "--json"], dir);
    expect(byRound()).toEqual(warm);
  });
});

describe("a cache never makes an answer wrong (one extra round trip)", () => {
  test("an organization that moved region: asked again of the service's URL while its region is re-learned", async () => {
    const dir = tempDir("tracker-cfg-");
    await run(["issue", "list", "globex/billing", "--json"], dir);
    const globex = api.state.orgs.find((o) => o.slug === "globex");
    if (!globex) throw new Error("seed changed");
    globex.region = "us";
    try {
      const moved = await run(["issue", "list", "globex/billing", "--json"], dir);
      expect(JSON.parse(moved.stdout).data.length).toBeGreaterThan(0);
      expect(byRound()).toEqual([
        "1 de GET /api/0/organizations/globex/issues/",
        "2 control GET /api/0/organizations/globex/",
        "2 control GET /api/0/organizations/globex/issues/",
      ]);
      // Learned: the next run goes straight to the new region.
      await run(["issue", "list", "globex/billing", "--json"], dir);
      expect(byRound()).toEqual(["1 us GET /api/0/organizations/globex/issues/"]);
    } finally {
      globex.region = "de";
    }
  });

  test("a renamed project: its old slug is resolved afresh instead of listing the renamed one's issues", async () => {
    const dir = tempDir("tracker-cfg-");
    await run(["issue", "list", "acme/api", "--json"], dir);
    const api2 = api.state.projects.find((p) => p.org === "acme" && p.slug === "api");
    if (!api2) throw new Error("seed changed");
    api2.slug = "backend";
    try {
      api.reset();
      const r = await runCli(["issue", "list", "acme/api", "--json"], {
        api,
        token: USER_TOKEN,
        configDir: dir,
      });
      expect(r.exitCode).toBe(23);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain("Project 'acme/api' was not found.");
      // Round 1 lists by the cached id and sees backend's issues; round 2 asks for the slug afresh.
      // (What follows is the usual not-found diagnosis: the organizations and their projects.)
      expect(byRound().slice(0, 2)).toEqual([
        "1 us GET /api/0/organizations/acme/issues/",
        "2 us GET /api/0/projects/acme/api/",
      ]);
      // The renamed project's own slug works at once from the cache.
      const renamed = await run(["issue", "list", "acme/backend", "--json"], dir);
      expect(JSON.parse(renamed.stdout).data.length).toBeGreaterThan(0);
      expect(byRound()).toEqual(["1 us GET /api/0/organizations/acme/issues/"]);
    } finally {
      api2.slug = "api";
    }
  });
});
