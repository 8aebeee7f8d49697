/** A monorepo end to end: DSN detection → multi-project issue list with aliases → issue view <alias>-<suffix>. */
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { dsnFor, USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

function monorepo(projects: [org: string, slug: string, dir: string][]): string {
  const root = tempDir("tracker-monorepo-");
  mkdirSync(join(root, ".git"));
  writeFileSync(join(root, ".git/HEAD"), "ref: refs/heads/main\n");
  for (const [org, slug, dir] of projects) {
    const p = api.state.projects.find((x) => x.org === org && x.slug === slug);
    if (!p) throw new Error(`no seeded project ${org}/${slug}`);
    const file = join(root, dir, ".env");
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `SENTRY_DSN=${dsnFor(api.state, p)}\n`);
  }
  return root;
}

interface Row {
  shortId: string;
  alias: string;
  project: { slug: string };
}

test("issue list in a monorepo splits the limit across projects, fetched per project, with aliases", async () => {
  const cwd = monorepo([
    ["acme", "web", "packages/web"],
    ["acme", "api", "packages/api"],
  ]);
  const configDir = tempDir();
  const r = await runCli(["issue", "list", "-n", "10", "--json"], { api, token: USER_TOKEN, cwd, configDir });
  expect(r.exitCode).toBe(0);
  const out = JSON.parse(r.stdout) as { data: Row[]; hasMore: boolean };
  expect(out.data).toHaveLength(10);
  expect(out.hasMore).toBe(true);
  const bySlug = new Map<string, Row[]>();
  for (const row of out.data) bySlug.set(row.project.slug, [...(bySlug.get(row.project.slug) ?? []), row]);
  expect([...bySlug.keys()].sort()).toEqual(["api", "web"]);
  expect(new Set(out.data.map((d) => d.alias)).size).toBe(2);
  const searches = api.requestsTo("/api/0/organizations/acme/issues/");
  expect(searches.map((q) => q.query.getAll("project")).sort()).toEqual([["300001"], ["300002"]]);
  expect(searches.every((q) => Number(q.query.get("limit")) <= 5)).toBe(true);

  // A later command resolves <alias>-<suffix> from the stored aliases, without rescanning.
  const web = bySlug.get("web")?.[0] as Row;
  const ref = `${web.alias}-${web.shortId.slice(web.shortId.lastIndexOf("-") + 1)}`;
  api.reset();
  const v = await runCli(["issue", "view", ref, "--json"], {
    api,
    token: USER_TOKEN,
    cwd: tempDir(),
    configDir,
  });
  expect(v.stderr).toBe("");
  expect(v.exitCode).toBe(0);
  expect((JSON.parse(v.stdout) as { shortId: string }).shortId).toBe(web.shortId);
});

test("human output has an ALIAS column and the alias tip", async () => {
  const cwd = monorepo([
    ["acme", "web", "apps/web"],
    ["acme", "mobile-app", "apps/mobile"],
  ]);
  const r = await runCli(["issue", "list", "-n", "4"], {
    api,
    token: USER_TOKEN,
    cwd,
    terminal: { stdout: true, stderr: true },
    env: { NO_COLOR: "1" },
  });
  expect(r.exitCode).toBe(0);
  expect(r.stdout).toMatch(/^ALIAS\s+ID\s+LEVEL\s+TITLE\s+EVENTS\s+USERS\s+LAST SEEN$/m);
  expect(r.stderr).toContain("Tip: view an issue by alias and suffix");
});

test("a monorepo with DSNs of two organizations: full short IDs and numeric IDs need no project context", async () => {
  const cwd = monorepo([
    ["acme", "api", "services/api"],
    ["globex", "billing", "services/billing"],
  ]);
  const configDir = tempDir();
  const run = (args: string[]) => runCli(args, { api, token: USER_TOKEN, cwd, configDir });
  const billing = api.state.projects.find((p) => p.org === "globex" && p.slug === "billing");
  expect(billing).toBeDefined();
  // A short ID found in one of the organizations.
  const view = await run(["issue", "view", "BILLING-1", "--json"]);
  expect(view.stderr).not.toContain("ambiguous");
  expect(view.exitCode).toBe(0);
  const issue = JSON.parse(view.stdout) as { id: string; org: string; shortId: string };
  expect([issue.org, issue.shortId]).toEqual(["globex", "BILLING-1"]);
  // Its numeric ID, and the AI analysis of the same short ID.
  const byId = await run(["issue", "view", issue.id, "--json", "--fresh"]);
  expect(byId.exitCode).toBe(0);
  expect(JSON.parse(byId.stdout).shortId).toBe("BILLING-1");
  const explain = await run(["issue", "explain", "BILLING-1", "--json"]);
  expect(explain.stderr).not.toContain("ambiguous");
  expect(explain.exitCode).toBe(0);
  // The same short ID in both organizations is never picked silently; every suggestion works.
  const twice = await run(["issue", "view", "WEB-1"]);
  expect(twice.exitCode).toBe(23);
  expect(twice.stderr).toContain("Error: Issue 'WEB-1' exists in 2 organizations.");
  expect(twice.stderr).toContain("  - acme/WEB-1\n  - globex/WEB-1");
  for (const pick of ["acme/WEB-1", "globex/WEB-1"]) {
    const r = await run(["issue", "view", pick, "--json"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).org).toBe(pick.split("/")[0]);
  }
}, 30_000);
