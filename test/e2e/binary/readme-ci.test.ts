/**
 * Issue 31 §2: the README's "Use in CI" snippets run as written. The `tracker …` lines are read
 * from README.md (so the test and the README cannot drift) and run by bash, one step at a time as
 * a CI runner does, with `tracker` on PATH as a child process (the compiled binary under
 * TRACKER_TEST_BINARY), in a real git clone with a build directory, against the fake service:
 * once with only an org token in the environment, once after a device-flow login.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { mintOrgToken } from "../../fake-api/routes/auth.ts";
import { configureOAuth, TEST_CLIENT_ID } from "../../fake-api/routes/oauth.ts";
import { findRelease } from "../../fake-api/routes/releases.ts";
import { cliCommand, tempDir } from "../../helpers/cli.ts";
import { useFakeApi } from "../../helpers/fake-api.ts";

const api = useFakeApi({ afterReset: (a) => a.state.store.delete("chunks") });
beforeEach(() => {
  configureOAuth(api.state, { interval: 0 });
});

const README = readFileSync(resolve(import.meta.dir, "../../../README.md"), "utf8");

/** The YAML blocks of the README's "Use in CI" section. */
function ciBlocks(): string[] {
  const section = README.split(/^## Use in CI$/m)[1]?.split(/^## /m)[0] ?? "";
  return [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] as string);
}

/** The steps of a block that run tracker: `- run: tracker …` (GitHub) or `- tracker …` (GitLab). */
function trackerSteps(block: string): string[] {
  return block
    .split("\n")
    .map((l) => /^\s*-\s+(?:run:\s+)?(tracker\s.*)$/.exec(l)?.[1]?.trim())
    .filter((s): s is string => s !== undefined);
}

const GIT_ENV = {
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "CI",
  GIT_AUTHOR_EMAIL: "ci@example.com",
  GIT_COMMITTER_NAME: "CI",
  GIT_COMMITTER_EMAIL: "ci@example.com",
};

function git(cwd: string, args: string[]): string {
  const r = Bun.spawnSync(["git", ...args], { cwd, env: { ...process.env, ...GIT_ENV }, stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString().trim();
}

/**
 * A checkout as a CI job has it: a full clone whose origin is acme/web, a build in dist/ (a
 * bundle and its source map), ./backup.sh; and `tracker` on PATH.
 */
function checkout(): { dir: string; bin: string; head: string; first: string } {
  const root = tempDir("tracker-ci-");
  const src = join(root, "acme", "web");
  mkdirSync(src, { recursive: true });
  git(src, ["init", "-q", "-b", "main"]);
  writeFileSync(join(src, "README.md"), "web\n");
  git(src, ["add", "-A"]);
  git(src, ["commit", "-q", "-m", "Initial commit"]);
  const first = git(src, ["rev-parse", "HEAD"]);
  writeFileSync(join(src, "backup.sh"), '#!/bin/sh\necho "backing up"\ntouch backup-ran\n');
  chmodSync(join(src, "backup.sh"), 0o755);
  git(src, ["add", "-A"]);
  git(src, ["commit", "-q", "-m", "Add the backup job"]);
  const dir = join(root, "checkout");
  git(root, ["clone", "-q", `file://${src}`, dir]);
  mkdirSync(join(dir, "dist"));
  writeFileSync(join(dir, "dist", "app.js"), "a();\n//# sourceMappingURL=app.js.map\n");
  writeFileSync(
    join(dir, "dist", "app.js.map"),
    JSON.stringify({ version: 3, mappings: "AAAA", sources: ["a.ts"], names: [] }),
  );
  const bin = join(root, "bin");
  mkdirSync(bin);
  const quoted = cliCommand()
    .map((w) => `'${w.replace(/'/g, "'\\''")}'`)
    .join(" ");
  writeFileSync(join(bin, "tracker"), `#!/bin/sh\nexec ${quoted} "$@"\n`);
  chmodSync(join(bin, "tracker"), 0o755);
  return { dir, bin, head: git(dir, ["rev-parse", "HEAD"]), first };
}

/** A CI job's environment: the runner's (no TRACKER_*), tracker on PATH, no pager, its own config dir. */
function jobEnv(bin: string, extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith("TRACKER_") && !k.startsWith("SENTRY_")) env[k] = v;
  }
  return {
    ...env,
    ...GIT_ENV,
    PATH: `${bin}:${process.env.PATH ?? ""}`,
    TRACKER_CONFIG_DIR: tempDir("tracker-cfg-"),
    TRACKER_PAGER: "",
    CI: "true",
    ...extra,
  };
}

/** Runs one step as the runner does (`bash -e -c`), in the checkout. */
async function step(line: string, cwd: string, env: Record<string, string>) {
  const proc = Bun.spawn(["bash", "-e", "-c", line], { cwd, env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { line, exitCode, stdout, stderr };
}

/** The previous release of acme/web was built from this repository (its first commit). */
function previousReleaseFrom(first: string): void {
  const prev = findRelease(api.state, "acme", "web@1.5.0");
  if (!prev) throw new Error("seed changed");
  prev.commits = [{ id: first, repository: "acme/web" }];
}

/** What the service was asked to change, as `METHOD path`. */
function changes(): string[] {
  return api.requests
    .filter((r) => r.method !== "GET" && !r.path.startsWith("/oauth/"))
    .map((r) => `${r.method} ${r.path.replace(/\/chunk-upload\/.*$/, "/chunk-upload/")}`);
}

test("the README has the GitHub Actions and GitLab CI snippets this test runs", () => {
  const blocks = ciBlocks();
  expect(blocks).toHaveLength(2);
  expect(trackerSteps(blocks[0] as string).length).toBeGreaterThanOrEqual(5);
  expect(trackerSteps(blocks[1] as string).length).toBeGreaterThanOrEqual(5);
  expect(blocks[0]).toContain("TRACKER_AUTH_TOKEN");
});

describe("with only an org token", () => {
  for (const [name, index] of [
    ["GitHub Actions", 0],
    ["GitLab CI", 1],
  ] as const) {
    test(`${name}: every tracker step exits 0 and the service gets the release, commits, bundle, deploy`, async () => {
      const { dir, bin, head, first } = checkout();
      previousReleaseFrom(first);
      const token = mintOrgToken(api.state, "acme", ["org:ci"]);
      const env = jobEnv(bin, { TRACKER_AUTH_TOKEN: token, VERSION: `web@${head}` });
      const results = [];
      for (const line of trackerSteps(ciBlocks()[index] as string)) results.push(await step(line, dir, env));
      for (const r of results) {
        expect({ line: r.line, exitCode: r.exitCode, stderr: r.stderr }).toMatchObject({
          line: r.line,
          exitCode: 0,
        });
        expect(r.stderr).not.toContain("is required");
        expect(r.stdout + r.stderr).not.toContain(token);
      }
      const version = encodeURIComponent(`web@${head}`);
      const made = changes();
      expect(made).toContain("POST /api/0/organizations/acme/releases/");
      expect(made).toContain(`PUT /api/0/organizations/acme/releases/${version}/`);
      expect(made).toContain("POST /api/0/organizations/acme/artifactbundle/assemble/");
      expect(made).toContain(`POST /api/0/organizations/acme/releases/${version}/deploys/`);
      const release = findRelease(api.state, "acme", `web@${head}`);
      expect(release?.commits.map((c) => c.id)).toEqual([head]);
      expect(release?.dateReleased).toBeTruthy();
      if (index === 1) {
        // The nightly job ran (no DSN in this checkout: one warning, no check-ins, the job's exit code).
        expect(existsSync(join(dir, "backup-ran"))).toBe(true);
        const nightly = results.find((r) => r.line.includes("monitor run")) as (typeof results)[number];
        expect(nightly.stdout).toBe("backing up\n");
        expect(nightly.stderr).toContain("No check-ins for nightly-backup");
      }
    }, 60_000);
  }
});

test("after a device-flow login (the organization and project from the repository's .sentryclirc)", async () => {
  const { dir, bin, head, first } = checkout();
  previousReleaseFrom(first);
  writeFileSync(join(dir, ".sentryclirc"), "[defaults]\norg = acme\nproject = web\n");
  const env = jobEnv(bin, { TRACKER_URL: api.url, VERSION: `web@${head}` });
  const login = await step("tracker auth status || tracker auth login", dir, {
    ...env,
    TRACKER_CLIENT_ID: TEST_CLIENT_ID,
  });
  expect(login.exitCode).toBe(0);
  expect(login.stdout).toContain(`Logged in to ${api.url}`);
  for (const line of trackerSteps(ciBlocks()[0] as string)) {
    const r = await step(line, dir, env);
    expect({ line, exitCode: r.exitCode, stderr: r.stderr }).toMatchObject({ line, exitCode: 0 });
  }
  const release = findRelease(api.state, "acme", `web@${head}`);
  expect(release?.commits.map((c) => c.id)).toEqual([head]);
  expect(release?.dateReleased).toBeTruthy();
  expect(changes()).toContain(
    `POST /api/0/organizations/acme/releases/${encodeURIComponent(`web@${head}`)}/deploys/`,
  );
}, 60_000);
