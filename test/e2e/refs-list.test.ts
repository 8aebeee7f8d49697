/** `issue list` output as input: org on every JSON item, piped rows that start with a usable reference. */
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { issueStore } from "../fake-api/routes/issues.ts";
import { dsnFor, USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

/** A repository with one DSN per project (projects of two organizations make a cross-org monorepo). */
function monorepo(projects: [org: string, slug: string][]): string {
  const root = tempDir("tracker-monorepo-");
  mkdirSync(join(root, ".git"));
  writeFileSync(join(root, ".git/HEAD"), "ref: refs/heads/main\n");
  for (const [org, slug] of projects) {
    const p = api.state.projects.find((x) => x.org === org && x.slug === slug);
    if (!p) throw new Error(`no seeded project ${org}/${slug}`);
    const file = join(root, `${org}-${slug}`, ".env");
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `SENTRY_DSN=${dsnFor(api.state, p)}\n`);
  }
  return root;
}

const firstColumn = (stdout: string) =>
  stdout
    .trimEnd()
    .split("\n")
    .map((l) => l.split("\t")[0] ?? "");

test("a bare short ID that two organizations share says which organization the last listing chose", async () => {
  const configDir = tempDir();
  const listed = await runCli(["issue", "list", "acme/web", "-n", "50"], {
    api,
    token: USER_TOKEN,
    configDir,
  });
  expect(listed.exitCode).toBe(0);
  // WEB-1…WEB-5 exist in acme and in globex: the listing's one is used, and stderr says so.
  const id = firstColumn(listed.stdout).find((i) => /^WEB-[1-5]$/.test(i)) as string;
  expect(id).toMatch(/^WEB-[1-5]$/);
  const r = await runCli(["issue", "view", id, "--json"], { api, token: USER_TOKEN, configDir });
  expect(r.exitCode).toBe(0);
  expect(r.stderr).toBe(
    `${id} → acme (from your last listing or lookup; write <org>/${id} for another organization)\n`,
  );
  expect(JSON.parse(r.stdout).shortId).toBe(id);
});

test("a cross-organization monorepo: --json items carry their org; piped IDs shared by two orgs are org/SHORT-ID", async () => {
  const cwd = monorepo([
    ["acme", "web"],
    ["globex", "web"],
  ]);
  const run = (args: string[]) => runCli(["issue", "list", ...args], { api, token: USER_TOKEN, cwd });
  const json = await run(["-n", "6", "--json"]);
  expect(json.exitCode).toBe(0);
  const items = JSON.parse(json.stdout).data as { org: string; permalink: string }[];
  expect(items).toHaveLength(6);
  for (const i of items) expect(i.permalink).toStartWith(`https://${i.org}.sentry.io/`);
  expect(new Set(items.map((i) => i.org))).toEqual(new Set(["acme", "globex"]));

  const piped = await run(["-n", "4"]);
  expect(firstColumn(piped.stdout)).toEqual(["globex/WEB-1", "acme/WEB-1", "globex/WEB-2", "acme/WEB-2"]);
  expect(piped.stdout.split("\n")[0]?.split("\t")[1]).toBe("g-w");
});

test("the tip of a cross-organization listing names the first issue with its organization", async () => {
  const cwd = monorepo([
    ["acme", "web"],
    ["globex", "web"],
  ]);
  const r = await runCli(["issue", "list", "-n", "2"], {
    api,
    token: USER_TOKEN,
    cwd,
    terminal: { stdout: true, stderr: true },
    env: { NO_COLOR: "1" },
  });
  expect(r.exitCode).toBe(0);
  expect(r.stderr).toContain(
    "Tip: view an issue by alias and suffix, e.g. tracker issue view g-w-1, or by organization: tracker issue view globex/WEB-1",
  );
  // The terminal table is unchanged: ALIAS first, the bare short ID.
  expect(r.stdout).toMatch(/^g-w\s+WEB-1\s/m);
});

test("issue list | cut -f1 | issue resolve - changes exactly the listed issues, in their organizations", async () => {
  const cwd = monorepo([
    ["acme", "web"],
    ["globex", "web"],
  ]);
  const configDir = tempDir();
  const listed = await runCli(["issue", "list", "-n", "5"], { api, token: USER_TOKEN, cwd, configDir });
  expect(listed.exitCode).toBe(0);
  const ids = firstColumn(listed.stdout);
  const r = await runCli(["issue", "resolve", "-", "--json"], {
    api,
    token: USER_TOKEN,
    cwd,
    configDir,
    stdin: `${ids.join("\n")}\n`,
  });
  expect(r.stderr).not.toContain("ambiguous");
  expect(r.exitCode).toBe(0);
  const changed = (JSON.parse(r.stdout).changed as { shortId: string; permalink: string }[]).map(
    (c) => `${new URL(c.permalink).hostname.split(".")[0]}/${c.shortId}`,
  );
  expect(changed.sort()).toEqual([...ids].sort());
  const resolved = issueStore(api.state)
    .issues.filter((x) => x.status === "resolved" && ids.includes(`${x.org}/${x.shortId}`))
    .map((x) => `${x.org}/${x.shortId}`);
  expect(resolved.sort()).toEqual([...ids].sort());
});

test("an org-wide listing piped: the short ID first, the alias second; items carry the org", async () => {
  const run = (args: string[]) => runCli(["issue", "list", "acme/", ...args], { api, token: USER_TOKEN });
  const piped = await run(["-n", "3"]);
  expect(piped.exitCode).toBe(0);
  expect(piped.stdout.split("\n")[0]?.split("\t").slice(0, 2)).toEqual(["MOBILE-APP-1", "m"]);
  for (const id of firstColumn(piped.stdout)) expect(id).toMatch(/^[A-Z][A-Z-]*-[0-9A-Z]+$/);
  const json = await run(["-n", "3", "--json"]);
  expect((JSON.parse(json.stdout).data as { org: string }[]).map((i) => i.org)).toEqual([
    "acme",
    "acme",
    "acme",
  ]);
});

test("a single-project listing piped is unchanged: the bare short ID first", async () => {
  const r = await runCli(["issue", "list", "acme/web", "-n", "2", "--json"], { api, token: USER_TOKEN });
  expect((JSON.parse(r.stdout).data as { org: string }[]).map((i) => i.org)).toEqual(["acme", "acme"]);
});

test("a single-organization listing piped: bare short IDs that also exist elsewhere resolve to the listed issues", async () => {
  const configDir = tempDir();
  // WEB-1…WEB-5 exist in acme and in globex; the listing of acme/web prints them bare.
  const listed = await runCli(["issue", "list", "acme/web", "-n", "3"], {
    api,
    token: USER_TOKEN,
    configDir,
  });
  expect(listed.exitCode).toBe(0);
  const ids = firstColumn(listed.stdout);
  expect(ids).toEqual(["WEB-3", "WEB-4", "WEB-5"]);
  // Without the listing, a bare namesake is ambiguous (control).
  const bare = await runCli(["issue", "resolve", "WEB-3", "--dry-run"], { api, token: USER_TOKEN });
  expect(bare.exitCode).toBe(23);
  const r = await runCli(["issue", "resolve", "-", "--json"], {
    api,
    token: USER_TOKEN,
    configDir,
    stdin: `${ids.join("\n")}\n`,
  });
  expect(r.exitCode).toBe(0);
  const orgs = (JSON.parse(r.stdout).changed as { permalink: string }[]).map(
    (c) => new URL(c.permalink).hostname.split(".")[0],
  );
  expect(orgs).toEqual(["acme", "acme", "acme"]);
});
