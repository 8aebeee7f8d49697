/**
 * The corpus of real-world-shaped sentry-cli CI invocations (test/fixtures/sentry-cli-scripts),
 * each run as written with tracker linked as `sentry-cli` first on PATH (the compiled binary under
 * TRACKER_TEST_BINARY), against the fake service: the requests it receives are asserted.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mintOrgToken } from "../fake-api/routes/auth.ts";
import { chunkStore } from "../fake-api/routes/chunks.ts";
import { receivedItems, resetMonitorStore } from "../fake-api/routes/monitors.ts";
import { dsnFor, USER_TOKEN } from "../fake-api/seed.ts";
import { tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";
import { runScript, SCRIPTS_DIR } from "../helpers/sentry-cli-scripts.ts";

const api = useFakeApi({
  afterReset: (a) => {
    resetMonitorStore(a.state);
    a.state.store.delete("chunks");
    a.state.store.delete("releases");
  },
});
const ciToken = () => mintOrgToken(api.state, "acme", ["org:ci"]);
/** A job's usual environment: the service, an org token, the organization. */
const ciEnv = (extra: Record<string, string> = {}) => ({
  SENTRY_URL: api.url,
  SENTRY_AUTH_TOKEN: ciToken(),
  SENTRY_ORG: "acme",
  ...extra,
});
/** initech/tps-reports's DSN: its host is the fake. */
const dsn = () => dsnFor(api.state, api.state.projects.find((p) => p.id === "300021") as never);

/** The changes the service received: method, path, status and JSON body. */
const writes = () =>
  api.requests
    .filter((r) => r.method !== "GET" && !r.path.endsWith("/envelope/"))
    .map((r) => ({
      call: `${r.method} ${r.path} ${r.status}`,
      body: r.body ? JSON.parse(r.body) : undefined,
    }));
const calls = () => writes().map((w) => w.call);
const bodyOf = (call: string) => writes().find((w) => w.call === call)?.body;

const GIT_ENV = { GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };
/** A working tree with one commit; its HEAD sha. */
function gitRepo(): { dir: string; head: string } {
  const dir = tempDir("tracker-ci-git-");
  const git = (...args: string[]) => {
    const r = Bun.spawnSync(["git", ...args], {
      cwd: dir,
      env: {
        ...process.env,
        ...GIT_ENV,
        GIT_AUTHOR_NAME: "CI",
        GIT_AUTHOR_EMAIL: "ci@example.com",
        GIT_COMMITTER_NAME: "CI",
        GIT_COMMITTER_EMAIL: "ci@example.com",
      },
    });
    if (r.exitCode !== 0) throw new Error(r.stderr.toString());
    return r.stdout.toString().trim();
  };
  git("init", "-q", "-b", "main");
  writeFileSync(join(dir, "README.md"), "web\n");
  git("add", "-A");
  git("commit", "-q", "-m", "Initial commit");
  return { dir, head: git("rev-parse", "HEAD") };
}

/** A build output directory `sub` (under a fresh dir) with a minified file and its map. */
function buildDir(sub: string, name = "main.js"): string {
  const root = tempDir("tracker-ci-build-");
  const dir = join(root, sub);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), `a();\n//# sourceMappingURL=${name}.map\n`);
  writeFileSync(
    join(dir, `${name}.map`),
    JSON.stringify({ version: 3, mappings: "AAAA", sources: ["a.ts"], names: [] }),
  );
  return root;
}

/** The URLs and debug IDs of the files of the one bundle the service assembled. */
function bundleFiles(): { release?: string; dist?: string; projects: string[]; urls: string[] } {
  const bundles = [...chunkStore(api.state).bundles.values()];
  expect(bundles).toHaveLength(1);
  const b = bundles[0] as NonNullable<(typeof bundles)[0]>;
  const urls = Object.values(b.manifest?.files ?? {})
    .map((f) => f.url)
    .sort();
  return { release: b.release, dist: b.dist, projects: b.projects, urls };
}

const UPLOAD = [
  "POST /api/0/organizations/acme/artifactbundle/assemble/ 200",
  "POST /api/0/organizations/acme/artifactbundle/assemble/ 200",
];

describe("sentry-cli CI scripts run unchanged with tracker as sentry-cli", () => {
  test("the corpus has at least 15 scripts, every one run below", () => {
    const files = readdirSync(SCRIPTS_DIR);
    expect(files.length).toBeGreaterThanOrEqual(15);
    // The debug-file scripts are run by sentry-cli-debug-files.test.ts.
    const source = ["sentry-cli-scripts", "sentry-cli-debug-files"]
      .map((name) => readFileSync(join(import.meta.dir, `${name}.test.ts`), "utf8"))
      .join("\n");
    for (const f of files) expect(source).toContain(`"${f}"`);
  });

  test("GitHub Actions: propose-version, new, set-commits --commit, finalize, deploys new", async () => {
    const { dir, head } = gitRepo();
    const r = await runScript(
      "github-actions-release.yml",
      ciEnv({ SENTRY_PROJECT: "web", GITHUB_SHA: head }),
      { cwd: dir },
    );
    expect(r.stderr).not.toContain("Error");
    expect(r.exitCode).toBe(0);
    const path = `/api/0/organizations/acme/releases/${head}/`;
    expect(calls()).toEqual([
      "POST /api/0/organizations/acme/releases/ 201",
      `PUT ${path} 200`,
      `PUT ${path} 200`,
      `POST ${path}deploys/ 201`,
    ]);
    expect(bodyOf("POST /api/0/organizations/acme/releases/ 201")).toEqual({
      version: head,
      projects: ["web"],
    });
    expect(writes()[1]?.body).toEqual({ refs: [{ repository: "acme/web", commit: head }] });
    expect(Object.keys(writes()[2]?.body)).toEqual(["dateReleased"]);
    expect(bodyOf(`POST ${path}deploys/ 201`)).toEqual({ environment: "production" });
  });

  test("GitHub Actions: sourcemaps inject then upload with --org/--project/--release", async () => {
    const root = buildDir("dist");
    const r = await runScript(
      "github-actions-sourcemaps.yml",
      { SENTRY_URL: api.url, SENTRY_AUTH_TOKEN: ciToken(), GITHUB_RUN_NUMBER: "7" },
      { cwd: root },
    );
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(root, "dist/main.js"), "utf8")).toMatch(/\/\/# debugId=[0-9a-f-]{36}\n$/);
    expect(calls()).toEqual(UPLOAD);
    expect(bundleFiles()).toEqual({
      release: "web@7",
      dist: undefined,
      projects: ["web"],
      urls: ["~/main.js", "~/main.js.map"],
    });
  });

  test("GitHub Actions with SENTRY_ALLOW_FAILURE=1: a failed call is a warning, the job goes on", async () => {
    const r = await runScript("github-actions-allow-failure.yml", ciEnv({ SENTRY_ALLOW_FAILURE: "1" }));
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("job continues\n");
    expect(r.stderr).toContain("Error: ");
    expect(r.stderr).toEndWith(
      '"SENTRY_ALLOW_FAILURE" variable or "allow-failure" flag was set. Exiting with 0 exit code.\n',
    );
    // The region answered 404, so the service's own URL was asked once more (a stale region).
    expect(calls()).toEqual([
      "PUT /api/0/organizations/acme/releases/web%400.0.0-never-created/ 404",
      "PUT /api/0/organizations/acme/releases/web%400.0.0-never-created/ 404",
    ]);
  });

  test("GitLab CI: new -p, set-commits, finalize, deploys new -e -n -u", async () => {
    const sha = "4f2a9c1d".repeat(5);
    const r = await runScript(
      "gitlab-ci-release.yml",
      ciEnv({
        CI_COMMIT_SHA: sha,
        CI_COMMIT_SHORT_SHA: sha.slice(0, 8),
        CI_ENVIRONMENT_NAME: "production",
        CI_JOB_ID: "4242",
        CI_JOB_URL: "https://gitlab.example.com/acme/web/-/jobs/4242",
      }),
    );
    expect(r.exitCode).toBe(0);
    const path = "/api/0/organizations/acme/releases/web%404f2a9c1d/";
    expect(calls()).toEqual([
      "POST /api/0/organizations/acme/releases/ 201",
      `PUT ${path} 200`,
      `PUT ${path} 200`,
      `POST ${path}deploys/ 201`,
    ]);
    expect(writes()[0]?.body).toEqual({ version: "web@4f2a9c1d", projects: ["web"] });
    expect(writes()[1]?.body).toEqual({ refs: [{ repository: "acme/web", commit: sha }] });
    expect(writes()[3]?.body).toEqual({
      environment: "production",
      name: "4242",
      url: "https://gitlab.example.com/acme/web/-/jobs/4242",
    });
  });

  test("GitLab CI, sentry-cli 1.x: releases files <v> upload-sourcemaps --url-prefix --ext", async () => {
    const root = buildDir("build");
    const r = await runScript(
      "gitlab-ci-sourcemaps-legacy.yml",
      ciEnv({ SENTRY_PROJECT: "web", CI_COMMIT_TAG: "v2.3.0" }),
      { cwd: root },
    );
    expect(r.exitCode).toBe(0);
    expect(calls()).toEqual([
      "POST /api/0/organizations/acme/releases/ 201",
      ...UPLOAD,
      "PUT /api/0/organizations/acme/releases/v2.3.0/ 200",
    ]);
    expect(bundleFiles()).toEqual({
      release: "v2.3.0",
      dist: undefined,
      projects: ["web"],
      urls: ["~/static/js/main.js", "~/static/js/main.js.map"],
    });
  });

  test("fastlane lane: new -p, finalize, deploys new", async () => {
    const r = await runScript("fastlane-release.sh", ciEnv({ APP_VERSION: "1.2.3", BUILD_NUMBER: "45" }));
    expect(r.exitCode).toBe(0);
    const path = "/api/0/organizations/acme/releases/com.acme.app%401.2.3%2B45/";
    expect(calls()).toEqual([
      "POST /api/0/organizations/acme/releases/ 201",
      `PUT ${path} 200`,
      `POST ${path}deploys/ 201`,
    ]);
    expect(writes()[0]?.body).toEqual({ version: "com.acme.app@1.2.3+45", projects: ["mobile-app"] });
    expect(writes()[2]?.body).toEqual({ environment: "testflight" });
  });

  test("Xcode build phase: `which sentry-cli` finds it; --allow-failure release and finalize", async () => {
    const r = await runScript("xcode-build-phase.sh", {
      SENTRY_URL: api.url,
      SENTRY_AUTH_TOKEN: ciToken(),
      MARKETING_VERSION: "2.0",
      CURRENT_PROJECT_VERSION: "7",
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toContain("not installed");
    expect(calls()).toEqual([
      "POST /api/0/organizations/acme/releases/ 201",
      "PUT /api/0/organizations/acme/releases/com.acme.app%402.0%2B7/ 200",
    ]);
  });

  test("Gradle (React Native): releases -o -p new, releases files upload-sourcemaps --dist of a .bundle", async () => {
    const root = buildDir("bundle", "index.android.bundle");
    const r = await runScript(
      "gradle-react-native.sh",
      { SENTRY_URL: api.url, SENTRY_AUTH_TOKEN: ciToken(), VERSION_NAME: "3.1.0", VERSION_CODE: "310" },
      { cwd: root },
    );
    expect(r.exitCode).toBe(0);
    expect(calls()).toEqual(["POST /api/0/organizations/acme/releases/ 201", ...UPLOAD]);
    expect(writes()[0]?.body).toEqual({ version: "com.acme.app@3.1.0+310", projects: ["mobile-app"] });
    expect(bundleFiles()).toEqual({
      release: "com.acme.app@3.1.0+310",
      dist: "310",
      projects: ["mobile-app"],
      // As sentry-cli names them: relative to the directory given.
      urls: ["~/index.android.bundle", "~/index.android.bundle.map"],
    });
  });

  test("npm script: sourcemaps inject && upload with --org/--project, no release", async () => {
    const root = buildDir("dist");
    const r = await runScript(
      "npm-scripts.json",
      { SENTRY_URL: api.url, SENTRY_AUTH_TOKEN: ciToken() },
      { cwd: root, npmScripts: ["sentry:sourcemaps"] },
    );
    expect(r.exitCode).toBe(0);
    expect(calls()).toEqual(UPLOAD);
    expect(bundleFiles()).toEqual({
      release: undefined,
      dist: undefined,
      projects: ["web"],
      urls: ["~/main.js", "~/main.js.map"],
    });
  });

  test("cron: monitors run <slug> -- job: in_progress then ok, environment production, the job's output", async () => {
    const r = await runScript("cron-monitor.sh", { SENTRY_DSN: dsn() });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("backing up\n");
    const items = receivedItems(api.state, "check_in");
    expect(items.map((c) => [c.monitor_slug, c.status, c.environment])).toEqual([
      ["nightly-backup", "in_progress", "production"],
      ["nightly-backup", "ok", "production"],
    ]);
  });

  test("cron: monitors run with a schedule and thresholds upserts the monitor", async () => {
    const r = await runScript("cron-monitor-upsert.sh", { SENTRY_DSN: dsn() });
    expect(r.exitCode).toBe(0);
    const [open] = receivedItems(api.state, "check_in");
    expect(open).toMatchObject({
      monitor_slug: "db-vacuum",
      status: "in_progress",
      environment: "production",
    });
    expect(open?.monitor_config).toEqual({
      schedule: { type: "crontab", value: "0 3 * * *" },
      checkin_margin: 5,
      max_runtime: 30,
      timezone: "UTC",
      failure_issue_threshold: 2,
      recovery_threshold: 3,
    });
  });

  test("deploy script: send-event with two -m lines, tags, extra, release, log breadcrumbs; production; no environ", async () => {
    const r = await runScript("deploy-send-event.sh", {
      SENTRY_DSN: dsn(),
      VERSION: "1.2.3",
      BUILD_ID: "99",
      SECRET_TOKEN: "do-not-send-me",
    });
    expect(r.exitCode).toBe(0);
    const event = receivedItems(api.state, "event")[0] ?? {};
    expect(event).toMatchObject({
      level: "error",
      release: "1.2.3",
      environment: "production",
      tags: { stage: "migrate" },
      extra: { build: "99" },
    });
    expect(JSON.stringify(event)).toContain("Deploy of 1.2.3 failed\\nstep: migrate");
    expect(JSON.stringify(event)).not.toContain("do-not-send-me");
    expect((event.extra as Record<string, unknown>).environ).toBeUndefined();
    const crumbs = (event.breadcrumbs as { values: { message: string }[] }).values.map((b) => b.message);
    expect(crumbs).toEqual(["migrating", "error: relation users already exists"]);
  });

  test("CircleCI: propose-version from CIRCLE_SHA1, new -p -p --finalize, deploys new -t -n", async () => {
    const sha = "9e1d2b7a".repeat(5);
    const r = await runScript("circleci-release.sh", ciEnv({ CIRCLE_SHA1: sha }));
    expect(r.exitCode).toBe(0);
    expect(calls()).toEqual([
      "POST /api/0/organizations/acme/releases/ 201",
      `POST /api/0/organizations/acme/releases/${sha}/deploys/ 201`,
    ]);
    expect(writes()[0]?.body).toMatchObject({
      version: sha,
      projects: ["web", "api"],
      dateReleased: expect.any(String),
    });
    const deploy = writes()[1]?.body;
    expect(deploy).toMatchObject({ environment: "production", name: "web-1" });
    expect(Date.parse(deploy.dateFinished) - Date.parse(deploy.dateStarted)).toBe(42_000);
  });

  test("access proxy: --url, --auth-token, two --header on every request to the service; nothing printed of them", async () => {
    const token = ciToken();
    const r = await runScript("access-proxy-headers.sh", {
      SENTRY_HOST: api.url,
      SENTRY_TOKEN: token,
      CF_ID: "client-id-123",
      CF_SECRET: "client-secret-456",
      BUILD_NUMBER: "12",
    });
    expect(r.exitCode).toBe(0);
    expect(calls()).toEqual(["POST /api/0/organizations/acme/releases/ 201"]);
    expect(writes()[0]?.body).toEqual({ version: "web@12", projects: ["web"] });
    expect(api.requests.length).toBeGreaterThan(0);
    for (const q of api.requests) {
      expect(q.headers["cf-access-client-id"]).toBe("client-id-123");
      expect(q.headers["cf-access-client-secret"]).toBe("client-secret-456");
      expect(q.headers.authorization).toBe(`Bearer ${token}`);
    }
    expect(r.stdout + r.stderr).not.toContain(token);
    expect(r.stdout + r.stderr).not.toContain("client-secret-456");
  });

  test("Bitbucket: 2.x/3.x deploys new --release … and deploys list --release …", async () => {
    const r = await runScript(
      "deploys-new-3x.sh",
      ciEnv({ BITBUCKET_BUILD_NUMBER: "88", SENTRY_RELEASE: "web@1.4.0" }),
    );
    expect(r.exitCode).toBe(0);
    expect(calls()).toEqual(["POST /api/0/organizations/acme/releases/web%401.4.0/deploys/ 201"]);
    expect(writes()[0]?.body).toEqual({
      environment: "staging",
      name: "canary",
      url: "https://bitbucket.org/acme/web/pipelines/results/88",
    });
    expect(api.requestsTo("/api/0/organizations/acme/releases/web%401.4.0/deploys/", "GET")).toHaveLength(1);
    expect(r.stdout).toContain("staging");
  });

  test("bundler plugin: new, set-commits --auto --ignore-missing, upload with --ext/--ignore, finalize, deploy", async () => {
    const { dir, head } = gitRepo();
    Bun.spawnSync(["git", "remote", "add", "origin", "git@github.com:acme/web.git"], {
      cwd: dir,
      env: { ...process.env, ...GIT_ENV },
    });
    mkdirSync(join(dir, "dist/node_modules"), { recursive: true });
    writeFileSync(join(dir, "dist/app.js"), "a();\n//# sourceMappingURL=app.js.map\n");
    writeFileSync(
      join(dir, "dist/app.js.map"),
      JSON.stringify({ version: 3, mappings: "AAAA", sources: ["a.ts"], names: [] }),
    );
    writeFileSync(join(dir, "dist/node_modules/dep.js"), "d();\n");
    const r = await runScript("bundler-plugin.sh", ciEnv({ SENTRY_PROJECT: "web", RELEASE: "web@5.0.0" }), {
      cwd: dir,
    });
    expect(r.exitCode).toBe(0);
    const path = "/api/0/organizations/acme/releases/web%405.0.0/";
    expect(calls()).toEqual([
      "POST /api/0/organizations/acme/releases/ 201",
      `PUT ${path} 200`,
      ...UPLOAD,
      `PUT ${path} 200`,
      `POST ${path}deploys/ 201`,
    ]);
    expect(writes()[1]?.body).toEqual({ refs: [{ repository: "acme/web", commit: head }] });
    expect(bundleFiles()).toEqual({
      release: "web@5.0.0",
      dist: undefined,
      projects: ["web"],
      urls: ["~/assets/app.js", "~/assets/app.js.map"],
    });
  });

  test("report script: organizations list, projects list -o, releases list -o -p, --quiet releases info", async () => {
    const r = await runScript("maintenance-lists.sh", { SENTRY_URL: api.url, SENTRY_AUTH_TOKEN: USER_TOKEN });
    expect(r.stderr).not.toContain("Error");
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("acme");
    expect(r.stdout).toContain("mobile-app");
    expect(r.stdout).toContain("web@1.4.0");
    expect(r.stdout).toEndWith("web@1.4.0 exists\n");
    expect(calls()).toEqual([]);
  });
});
