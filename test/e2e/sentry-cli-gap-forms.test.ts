/**
 * sentry-cli flags that once had no counterpart and now run (issue 31 §4): `sourcemaps upload
 * --url-suffix`, `sourcemaps inject --ignore/--ignore-file`, `send-event --dist`, `releases
 * set-commits --clear`; and `info`'s exit codes as sentry-cli gives them (1 when not configured,
 * 0 with --config-status-json).
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mintOrgToken } from "../fake-api/routes/auth.ts";
import { chunkStore } from "../fake-api/routes/chunks.ts";
import { receivedItems, resetMonitorStore } from "../fake-api/routes/monitors.ts";
import { dsnFor } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi({
  afterReset: (a) => {
    resetMonitorStore(a.state);
    a.state.store.delete("chunks");
    a.state.store.delete("releases");
  },
});
const sc = (args: string[], opts: Parameters<typeof runCli>[1] = {}) => runCli(["sentry-cli", ...args], opts);
const ci = (cwd?: string) => ({
  api,
  token: mintOrgToken(api.state, "acme", ["org:ci"]),
  ...(cwd ? { cwd } : {}),
});

/** A build dir with a minified file and its map under `dist/` and `dist/vendor/`. */
function buildTree(): string {
  const root = tempDir("tracker-gap-forms-");
  for (const dir of ["dist", "dist/vendor"]) {
    mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, dir, "main.js"), "a();\n//# sourceMappingURL=main.js.map\n");
    writeFileSync(
      join(root, dir, "main.js.map"),
      JSON.stringify({ version: 3, mappings: "AAAA", sources: ["a.ts"], names: [] }),
    );
  }
  return root;
}

describe("sentry-cli flags that now have a tracker counterpart", () => {
  test("sourcemaps upload --url-suffix: every file's URL ends with the suffix", async () => {
    const root = buildTree();
    const r = await sc(
      [
        "sourcemaps",
        "upload",
        "-o",
        "acme",
        "-p",
        "web",
        "--url-prefix",
        "~/static",
        "--url-suffix",
        "?v=3",
        // Files without debug IDs go for a release (tracker refuses uploads nothing could match).
        "--release",
        "web@1.0.0",
        "dist",
      ],
      ci(root),
    );
    expect(r.stderr).not.toContain("Error");
    expect(r.exitCode).toBe(0);
    const bundles = [...chunkStore(api.state).bundles.values()];
    expect(bundles).toHaveLength(1);
    const urls = Object.values(bundles[0]?.manifest?.files ?? {})
      .map((f) => f.url)
      .sort();
    expect(urls).toEqual([
      "~/static/main.js.map?v=3",
      "~/static/main.js?v=3",
      "~/static/vendor/main.js.map?v=3",
      "~/static/vendor/main.js?v=3",
    ]);
  });

  test("sourcemaps inject --ignore and --ignore-file: matching files are left alone", async () => {
    for (const how of [
      ["--ignore", "vendor"],
      ["--ignore-file", ".sentryignore"],
    ]) {
      const root = buildTree();
      writeFileSync(join(root, ".sentryignore"), "# third-party code\n/vendor/\n");
      const r = await sc(["sourcemaps", "inject", ...how, "dist"], { cwd: root });
      expect(r.stderr).not.toContain("Error");
      expect(r.exitCode).toBe(0);
      expect(readFileSync(join(root, "dist/main.js"), "utf8")).toContain("//# debugId=");
      expect(readFileSync(join(root, "dist/vendor/main.js"), "utf8")).toBe(
        "a();\n//# sourceMappingURL=main.js.map\n",
      );
    }
  });

  test("tracker sourcemap inject --ignore --json lists only the files it kept", async () => {
    const root = buildTree();
    const r = await runCli(["sourcemap", "inject", "dist", "--ignore", "vendor/**", "--dry-run", "--json"], {
      cwd: root,
    });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout) as { injected: { file: string }[] };
    expect(doc.injected.map((f) => f.file)).toEqual(["dist/main.js"]);
  });

  test("send-event --dist: the event carries the dist", async () => {
    const project = api.state.projects.find((p) => p.id === "300021");
    const r = await sc(["send-event", "-m", "build check", "-r", "1.2.3", "--dist", "42"], {
      api,
      env: { SENTRY_DSN: dsnFor(api.state, project as never) },
    });
    expect(r.exitCode).toBe(0);
    expect(receivedItems(api.state, "event")[0]).toMatchObject({
      release: "1.2.3",
      dist: "42",
      environment: "production",
    });
  });

  test("releases set-commits --clear: one PUT of an empty list of refs, as sentry-cli sends", async () => {
    const r = await sc(["releases", "-o", "acme", "set-commits", "web@1.5.0", "--clear"], ci());
    expect(r.exitCode).toBe(0);
    const dry = await runCli(["release", "set-commits", "web@1.5.0", "acme", "--clear", "--dry-run"], ci());
    expect(dry.exitCode).toBe(0);
    expect(dry.stdout).toBe('PUT /api/0/organizations/acme/releases/web%401.5.0/\n{\n  "refs": []\n}\n');
    const puts = api.requests.filter((q) => q.method === "PUT");
    expect(puts.map((q) => [q.path, q.status, JSON.parse(q.body ?? "null")])).toEqual([
      ["/api/0/organizations/acme/releases/web%401.5.0/", 200, { refs: [] }],
    ]);
  });

  test("release set-commits --clear with --local is refused before anything is sent", async () => {
    const r = await runCli(["release", "set-commits", "web@1.5.0", "acme", "--clear", "--local"], ci());
    expect(r.exitCode).toBe(21);
    expect(r.stderr).toContain("Give exactly one of --auto, --local, --clear or --commit");
    expect(api.requests).toEqual([]);
  });
});

describe("sentry-cli info exits as sentry-cli does", () => {
  test("not logged in: the status on stdout and exit 1 (tracker auth status exits 10)", async () => {
    const r = await sc(["info"], { api });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain("Not logged in");
    expect((await runCli(["auth", "status"], { api })).exitCode).toBe(10);
  });

  test("--config-status-json: the document and exit 0, logged in or not", async () => {
    const none = await sc(["info", "--config-status-json"], { api });
    expect(none.exitCode).toBe(0);
    expect(JSON.parse(none.stdout)).toMatchObject({ auth: { type: null, successful: false } });
    const ok = await sc(["info", "--config-status-json"], ci());
    expect(ok.exitCode).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ auth: { type: "token", successful: true } });
  });

  test("logged in: exit 0", async () => {
    const r = await sc(["info"], ci());
    expect(r.exitCode).toBe(0);
  });
});
