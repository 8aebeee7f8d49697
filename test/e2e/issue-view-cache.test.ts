import { describe, expect, test } from "bun:test";
import { findIssue } from "../fake-api/routes/issues.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const view = (ref: string, configDir: string, env: Record<string, string> = {}) =>
  runCli(["issue", "view", ref, "--json"], { api, token: USER_TOKEN, configDir, env });
// The latest event's id is the fake's hash; the committers request carries it.
const calls = () => api.requests.map((r) => `${r.host} ${r.path.replace(/[0-9a-f]{32}/, "<event>")}`).sort();

describe("issue view: round trips", () => {
  test("cold acme/WEB-1 resolves the short id; warm it asks for the issue and its latest event at once", async () => {
    const dir = tempDir("tracker-cfg-");
    const cold = await view("acme/WEB-1", dir);
    expect(cold.exitCode).toBe(0);
    expect(calls()).toContain("us /api/0/organizations/acme/shortids/WEB-1/");
    api.reset();
    const warm = await view("acme/WEB-1", dir);
    expect(warm.exitCode).toBe(0);
    expect(JSON.parse(warm.stdout).shortId).toBe("WEB-1");
    expect(calls()).toEqual([
      "us /api/0/organizations/acme/issues/4001/",
      "us /api/0/organizations/acme/issues/4001/events/latest/",
      "us /api/0/organizations/acme/issues/4001/integrations/",
      "us /api/0/projects/acme/web/events/<event>/committers/",
    ]);
  });

  test("a numeric id seen before needs no unscoped lookup", async () => {
    const dir = tempDir("tracker-cfg-");
    await view("acme/WEB-2", dir);
    api.reset();
    const r = await view("4002", dir);
    expect(r.exitCode).toBe(0);
    expect(calls()).toEqual([
      "us /api/0/organizations/acme/issues/4002/",
      "us /api/0/organizations/acme/issues/4002/events/latest/",
      "us /api/0/organizations/acme/issues/4002/integrations/",
      "us /api/0/projects/acme/web/events/<event>/committers/",
    ]);
  });

  test("an explicit <org>/<numeric id> is one round trip even cold (after the region is known)", async () => {
    const dir = tempDir("tracker-cfg-");
    await runCli(["org", "list"], { api, token: USER_TOKEN, configDir: dir });
    api.reset();
    const r = await view("acme/4003", dir);
    expect(r.exitCode).toBe(0);
    expect(calls()).toEqual([
      "us /api/0/organizations/acme/issues/4003/",
      "us /api/0/organizations/acme/issues/4003/events/latest/",
      "us /api/0/organizations/acme/issues/4003/integrations/",
      "us /api/0/projects/acme/web/events/<event>/committers/",
    ]);
  });

  test("a short id that moved: the cached id is checked, forgotten, and the right issue shown", async () => {
    const dir = tempDir("tracker-cfg-");
    await view("acme/WEB-3", dir);
    const a = findIssue(api.state, "4003");
    const b = findIssue(api.state, "4004");
    if (!a || !b) throw new Error("seed changed");
    [a.shortId, b.shortId] = [b.shortId, a.shortId];
    try {
      api.reset();
      const r = await view("acme/WEB-3", dir);
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(r.stdout).id).toBe("4004");
      expect(calls()).toContain("us /api/0/organizations/acme/shortids/WEB-3/");
    } finally {
      [a.shortId, b.shortId] = [b.shortId, a.shortId];
    }
  });

  test("--fresh bypasses the cache", async () => {
    const dir = tempDir("tracker-cfg-");
    await view("acme/WEB-5", dir);
    api.reset();
    await runCli(["issue", "view", "acme/WEB-5", "--fresh", "--json"], {
      api,
      token: USER_TOKEN,
      configDir: dir,
    });
    expect(calls()).toContain("us /api/0/organizations/acme/shortids/WEB-5/");
  });

  test("the same short id in two organizations is never picked silently", async () => {
    const r = await view("WEB-1", tempDir("tracker-cfg-"));
    expect(r.exitCode).toBe(23);
    const err = JSON.parse(r.stderr).error;
    expect(err.message).toBe("Issue 'WEB-1' exists in 2 organizations.");
    expect(err.hint).toContain("acme/WEB-1");
    expect(err.hint).toContain("globex/WEB-1");
  });
});
