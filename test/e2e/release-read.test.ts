import { describe, expect, test } from "bun:test";
import { mintOrgToken } from "../fake-api/routes/auth.ts";
import { READ_ONLY_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

// Latency, so requests sent together share a round (see RecordedRequest.round).
const api = useFakeApi({ latencyMs: 15 });
const ciToken = () => mintOrgToken(api.state, "acme", ["org:ci"]);
/** Release requests (an org token's region lookup is the token machinery's, not the command's). */
const calls = () =>
  api.requests
    .filter((r) => r.path !== "/api/0/organizations/acme/")
    .map((r) => `${r.round} ${r.method} ${r.path}${r.query.size ? `?${r.query}` : ""}`);
const rounds = (lines: string[]) => new Set(lines.map((l) => l.split(" ")[0])).size;

describe("release list", () => {
  test("a project with an org token: one request to the project's releases; piped rows", async () => {
    const r = await runCli(["release", "list", "acme/web"], { api, token: ciToken() });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      [
        "web@1.5.0\t2026-01-12T12:00:00Z\t2\tproduction 2026-01-13T12:00:00Z",
        "web@1.4.0\t2025-12-16T12:00:00Z\t0\tproduction 2025-12-17T12:00:00Z",
        "1.2.3\t2025-09-17T12:00:00Z\t0\t-",
        "",
      ].join("\n"),
    );
    expect(calls().map((c) => c.slice(2))).toEqual(["GET /api/0/projects/acme/web/releases/?per_page=20"]);
  });

  test("once the project's id is known: one request to the org endpoint, with health columns", async () => {
    const configDir = tempDir();
    const token = ciToken();
    await runCli(["release", "list", "acme/web"], { api, token, configDir });
    api.reset();
    const r = await runCli(["release", "list", "acme/web"], { api, token, configDir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split("\n")).toEqual([
      "web@1.5.0\t2026-01-12T12:00:00Z\t2\tproduction 2026-01-13T12:00:00Z\t91.4\t99.5",
      "web@1.4.0\t2025-12-16T12:00:00Z\t0\tproduction 2025-12-17T12:00:00Z\t3.5\t98.25",
      "1.2.3\t2025-09-17T12:00:00Z\t0\t-\t\t",
      "",
    ]);
    expect(calls().map((c) => c.slice(2))).toEqual([
      "GET /api/0/organizations/acme/releases/?project=300001&per_page=20&sort=date&health=1",
    ]);
  });

  test("a terminal: upper-case headers, adoption and crash-free as percentages, a footer", async () => {
    const configDir = tempDir();
    const token = ciToken();
    await runCli(["release", "list", "acme/web"], { api, token, configDir });
    const r = await runCli(["release", "list", "acme/web", "-q", "1.5"], {
      api,
      token,
      configDir,
      terminal: { stdout: true, stderr: true },
      env: { NO_COLOR: "1" },
    });
    expect(r.exitCode).toBe(0);
    const [head, row] = r.stdout.split("\n");
    expect(head).toMatch(/^VERSION\s+CREATED\s+NEW ISSUES\s+LAST DEPLOY\s+ADOPTION\s+CRASH-FREE$/);
    expect(row).toMatch(/^web@1\.5\.0 .* 2 {2}production \S+ ago +91\.4% +99\.5%$/);
    expect(r.stderr).toBe("Showing 1 release of acme/web.\nShow one: tracker release view <VERSION> acme\n");
  });

  test("<org>/ --json: the pagination wrapper of the org listing with health data", async () => {
    const r = await runCli(["release", "list", "acme/", "-n", "2", "--json"], { api, token: ciToken() });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(["data", "hasMore", "nextCursor"]);
    expect(doc).toMatchObject({ nextCursor: "0:2:0", hasMore: true });
    expect(doc.data).toHaveLength(2);
    expect(doc.data[0]).toMatchObject({ version: expect.any(String), dateCreated: expect.any(String) });
    expect(calls().map((c) => c.slice(2))).toEqual([
      "GET /api/0/organizations/acme/releases/?per_page=2&sort=date&health=1",
    ]);
  });

  test("-s sessions without a known id: the id from the newest release, then the sorted org listing", async () => {
    const r = await runCli(["release", "list", "acme/web", "-s", "sessions"], { api, token: ciToken() });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split("\n").map((l) => l.split("\t")[0])).toEqual([
      "web@1.5.0",
      "web@1.4.0",
      "1.2.3",
      "",
    ]);
    expect(calls().map((c) => c.slice(2))).toEqual([
      "GET /api/0/projects/acme/web/releases/?per_page=1",
      "GET /api/0/organizations/acme/releases/?project=300001&per_page=20&sort=sessions&health=1&flatten=1",
    ]);
  });

  test("bad flags fail before any request", async () => {
    const s = await runCli(["release", "list", "acme/web", "-s", "size"], { api, token: ciToken() });
    expect(s.exitCode).toBe(21);
    const n = await runCli(["release", "list", "acme/web", "-n", "0"], { api, token: ciToken() });
    expect(n.exitCode).toBe(21);
    expect(api.requests).toEqual([]);
  });

  test("a token without a release scope: 403, exit 30", async () => {
    const r = await runCli(["release", "list", "acme/web"], {
      api,
      token: mintOrgToken(api.state, "acme", ["event:read"]),
    });
    expect(r.exitCode).toBe(30);
    expect(r.stdout).toBe("");
    expect(r.stderr).toStartWith("Error: Request failed with status 403");
  });
});

describe("release view / deploys", () => {
  test("the release and its deploys in one round trip; piped lines", async () => {
    const r = await runCli(["release", "view", "web@1.5.0", "acme"], { api, token: ciToken() });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split("\n")).toEqual([
      "Release web@1.5.0 (acme)",
      "Status:      finalized 2026-01-12T13:00:00Z",
      "Created:     2026-01-12T12:00:00Z",
      "Projects:    web",
      "Ref:         c3d4e5f",
      "Commits:     3 (last c3d4e5f60718)",
      "Authors:     Jane Doe <jane@example.com>, Bob Stone <bob@example.com>",
      "New issues:  2",
      "First event: 2026-01-12T12:10:00Z",
      "Last event:  2026-01-15T11:55:00Z",
      "Deploys:     2 (latest per environment)",
      "  production  2026-01-13T12:00:00Z",
      "  staging     2026-01-12T14:00:00Z",
      "Health:      web: adoption 91.4%, crash-free sessions 99.5%, users 99.8%",
      "",
    ]);
    const c = calls();
    expect(c.map((l) => l.slice(2)).sort()).toEqual([
      "GET /api/0/organizations/acme/releases/web%401.5.0/?health=1",
      "GET /api/0/organizations/acme/releases/web%401.5.0/deploys/?per_page=100",
    ]);
    expect(rounds(c)).toBe(1);
  });

  test("--json: the release with its deploys; a user token works too", async () => {
    const r = await runCli(["release", "view", "web@1.4.0", "acme", "--json"], {
      api,
      token: READ_ONLY_TOKEN,
    });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({
      version: "web@1.4.0",
      commitCount: 2,
      dateReleased: "2025-12-16T13:00:00.000Z",
      deploys: [{ id: "1", environment: "production", dateFinished: "2025-12-17T12:00:00.000Z" }],
    });
  });

  test("an unknown version: exit 23 naming it; a malformed one: exit 21 before any request", async () => {
    const r = await runCli(["release", "view", "web@9.9.9", "acme"], { api, token: ciToken() });
    expect(r.exitCode).toBe(23);
    expect(r.stdout).toBe("");
    expect(r.stderr).toStartWith("Error: Release 'web@9.9.9' was not found in organization 'acme'.");
    api.reset();
    const bad = await runCli(["release", "view", "a/b", "acme"], { api, token: ciToken() });
    expect(bad.exitCode).toBe(21);
    expect(bad.stderr).toContain("Invalid release version 'a/b'");
    expect(api.requests).toEqual([]);
  });

  test("deploys: latest per environment, newest first; --json is the list", async () => {
    const r = await runCli(["release", "deploys", "web@1.5.0", "acme/web"], { api, token: ciToken() });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      "production\t-\t2026-01-13T11:50:00Z\t2026-01-13T12:00:00Z\t-\nstaging\t-\t2026-01-12T13:50:00Z\t2026-01-12T14:00:00Z\t-\n",
    );
    const j = await runCli(["release", "deploys", "api@1.5.0", "acme", "--json"], { api, token: ciToken() });
    expect(j.exitCode).toBe(0);
    expect(JSON.parse(j.stdout)).toEqual([]);
    expect(calls().filter((c) => c.includes("deploys"))).toHaveLength(2);
  });

  test("the organization from TRACKER_ORG when no argument names it", async () => {
    const r = await runCli(["release", "deploys", "web@1.4.0", "--json"], {
      api,
      token: ciToken(),
      env: { TRACKER_ORG: "acme" },
    });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(1);
  });
});

test("an org token's claim names its organization's region: one request, no region lookup (its scopes forbid it)", async () => {
  const token = mintOrgToken(api.state, "acme", ["org:ci"]);
  const r = await runCli(["release", "list", "acme/web", "--json"], { api, token });
  expect(r.exitCode).toBe(0);
  expect(api.requests.map((q) => `${q.status} ${q.host} ${q.path}`)).toEqual([
    "200 us /api/0/projects/acme/web/releases/",
  ]);
});
