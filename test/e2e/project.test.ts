import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { type FakeApi, startFakeApi } from "../fake-api/server.ts";
import { dsnFor, publicKeyFor, USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";

const BIG = 130;

let api: FakeApi;
beforeAll(async () => {
  api = await startFakeApi({
    setup: (state) => {
      // An org with more projects than one page holds (100), to prove paging.
      state.orgs.push({
        id: "100009",
        slug: "bigco",
        name: "Big Co",
        region: "us",
        dateCreated: "2020-01-01T00:00:00.000000Z",
      });
      for (let i = 1; i <= BIG; i++) {
        const id = String(400000 + i);
        state.projects.push({
          id,
          slug: `svc-${String(i).padStart(3, "0")}`,
          name: `Service ${i}`,
          platform: "python",
          org: "bigco",
          dateCreated: "2021-02-01T08:00:00.000000Z",
          publicKey: publicKeyFor(id),
          dsnStyle: "hosted",
          isMember: true,
        });
      }
    },
  });
});
afterAll(() => api.stop());
afterEach(() => {
  expect(api.unmatched).toEqual([]);
  api.reset();
});

describe("project list", () => {
  test("--json: array of the org's projects", async () => {
    const r = await runCli(["project", "list", "acme", "--json"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    const list = JSON.parse(r.stdout) as { slug: string; id: string }[];
    expect(list.map((p) => p.slug)).toEqual(["web", "api", "mobile-app", "worker"]);
    expect(list[0]?.id).toBe("300001");
  });

  test("terminal: aligned table with a tip on stderr (golden)", async () => {
    const r = await runCli(["project", "list", "globex"], {
      api,
      token: USER_TOKEN,
      terminal: { stdout: true, stderr: true },
      env: { NO_COLOR: "1" },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      [
        "SLUG     NAME        PLATFORM",
        "web      Globex Web  javascript",
        "billing  Billing     java",
        "",
      ].join("\n"),
    );
    expect(r.stderr).toBe("Show one: tracker project view globex/<project>\n");
    expect(api.requestsTo("/api/0/organizations/globex/projects/").map((q) => q.host)).toEqual(["de"]);
  });

  test("piped: tab-separated rows, no header, no tip (golden)", async () => {
    const r = await runCli(["project", "list", "globex"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("web\tGlobex Web\tjavascript\nbilling\tBilling\tjava\n");
    expect(r.stderr).toBe("");
  });

  test("pages through more than 100 projects with per_page ≤ 100", async () => {
    const r = await runCli(["project", "list", "bigco", "--json"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(0);
    const list = JSON.parse(r.stdout) as { slug: string }[];
    expect(list).toHaveLength(BIG);
    expect(new Set(list.map((p) => p.slug)).size).toBe(BIG);
    const pages = api.requestsTo("/api/0/organizations/bigco/projects/");
    expect(pages.map((p) => [p.query.get("per_page"), p.query.get("cursor")])).toEqual([
      ["100", null],
      ["100", "0:100:0"],
    ]);
  });

  test("org from TRACKER_ORG is announced", async () => {
    const r = await runCli(["project", "list", "--json"], {
      api,
      token: USER_TOKEN,
      env: { TRACKER_ORG: "initech" },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("Using organization initech (from TRACKER_ORG)\n");
    expect((JSON.parse(r.stdout) as unknown[]).length).toBe(1);
  });

  test("unknown org differing in case: did you mean", async () => {
    const r = await runCli(["project", "list", "ACME"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toBe(
      "Error: Organization 'ACME' was not found.\n\nDid you mean acme? Slugs are case-sensitive.\n",
    );
  });

  test("empty org: [] with --json, a tip otherwise, exit 0", async () => {
    api.state.orgs.push({
      id: "100010",
      slug: "empty",
      name: "Empty",
      region: "de",
      dateCreated: "2020-01-01T00:00:00.000000Z",
    });
    try {
      const j = await runCli(["project", "list", "empty", "--json"], { api, token: USER_TOKEN });
      expect(j.exitCode).toBe(0);
      expect(j.stdout).toBe("[]\n");
      const h = await runCli(["project", "list", "empty"], { api, token: USER_TOKEN });
      expect(h.exitCode).toBe(0);
      expect(h.stdout).toBe("");
      expect(h.stderr).toBe("No projects in empty.\n");
    } finally {
      api.state.orgs.pop();
    }
  });
});

describe("project view", () => {
  test("--json: project object plus its public DSN", async () => {
    const r = await runCli(["project", "view", "acme/web", "--json"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(0);
    const p = JSON.parse(r.stdout) as Record<string, unknown>;
    const seeded = api.state.projects.find((x) => x.org === "acme" && x.slug === "web");
    expect(p).toMatchObject({ id: "300001", slug: "web", name: "Web", platform: "javascript-react" });
    expect(p.dsn).toBe(dsnFor(api.state, seeded as never));
    expect(api.requestsTo("/api/0/projects/acme/web/keys/")).toHaveLength(1);
  });

  test("human output", async () => {
    const r = await runCli(["project", "view", "globex/billing"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(0);
    const seeded = api.state.projects.find((x) => x.org === "globex" && x.slug === "billing");
    expect(r.stdout).toBe(
      [
        "Billing (globex/billing)",
        "ID:        300012",
        "Platform:  java",
        "Created:   2021-02-01T08:00:00.000000Z",
        `DSN:       ${dsnFor(api.state, seeded as never)}`,
        "",
      ].join("\n"),
    );
  });

  test("keys not readable (403): still shows the project, dsn null", async () => {
    api.inject({
      path: "/api/0/projects/acme/api/keys/",
      status: 403,
      body: { detail: "You do not have permission to perform this action." },
    });
    const r = await runCli(["project", "view", "acme/api", "--json"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).dsn).toBeNull();
  });

  test("unknown project: ResolutionError with the project list hint", async () => {
    const r = await runCli(["project", "view", "acme/nope"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toBe(
      "Error: Project 'acme/nope' was not found.\n\nRun `tracker project list acme` to see its projects.\n",
    );
  });
});
