/**
 * `span list <org>/` and `trace list <org>/` list every project of the organization, as `log list
 * <org>/` does: one request with project=-1, rows of several projects, a saved position of their
 * own (`-c last` continues the org-wide listing, not a project's) and a next-page hint that names
 * `<org>/`.
 */
import { describe, expect, test } from "bun:test";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { FAKE_NOW_MS } from "../fake-api/clock.ts";
import { runCli, runOnTerminal, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const EVENTS = "/api/0/organizations/acme/events/";
const api = useFakeApi();

/** The `project` parameters of the requests to the events endpoint. */
const projectParams = () =>
  api.requests.filter((q) => q.path === EVENTS).map((q) => q.query.getAll("project"));

describe.each([
  ["span", "spans", "project"],
  ["trace", "traces", "project"],
])("%s list <org>/", (noun, plural, projectField) => {
  test("one request for every project (project=-1); rows of several projects; the hint names acme/", async () => {
    const configDir = tempDir();
    const r = await runCli([noun, "list", "acme/", "-n", "50", "--json"], {
      api,
      token: USER_TOKEN,
      configDir,
    });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(projectParams()).toEqual([["-1"]]);
    const rows = (JSON.parse(r.stdout) as { data: Record<string, unknown>[] }).data;
    const projects = new Set(rows.map((row) => row[projectField]));
    expect(projects.size).toBeGreaterThan(1);
    const text = await runOnTerminal([noun, "list", "acme/", "-n", "1"], {
      api,
      token: USER_TOKEN,
      configDir,
      now: FAKE_NOW_MS,
    });
    expect(text.exitCode).toBe(0);
    expect(text.stderr).toContain(`Showing 1 ${plural.slice(0, -1)} from acme/ (`);
    expect(text.stderr).toContain(`  tracker ${noun} list acme/ -n 1 -c last\n`);
  });

  test("a bare organization slug is taken as acme/; -c last continues the org-wide listing", async () => {
    const configDir = tempDir();
    const first = await runCli([noun, "list", "acme", "-n", "1", "--json"], {
      api,
      token: USER_TOKEN,
      configDir,
    });
    expect(first.exitCode).toBe(0);
    const page1 = JSON.parse(first.stdout) as { nextCursor?: string };
    expect(page1.nextCursor).toBeString();
    api.reset();
    const next = await runCli([noun, "list", "acme/", "-n", "1", "-c", "last", "--json"], {
      api,
      token: USER_TOKEN,
      configDir,
    });
    expect(next.exitCode).toBe(0);
    const sent = api.requests.filter((q) => q.path === EVENTS).map((q) => q.query);
    expect(sent.map((p) => [p.getAll("project"), p.get("cursor") ?? ""])).toEqual([
      [["-1"], page1.nextCursor ?? "?"],
    ]);
  });
});
