import { describe, expect, test } from "bun:test";
import { chmodSync, copyFileSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chunkStore } from "../fake-api/routes/chunks.ts";
import { difStore } from "../fake-api/routes/difs.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const FIXTURE = join(import.meta.dir, "../fixtures/proguard/mapping.txt");
/** Recorded from sentry-cli 3.8.0 `proguard uuid` (test/fixtures/proguard/README.md). */
const SENTRY_CLI_UUID = "76d59355-8459-584e-8759-1d3468a7ae4e";
const ASSEMBLE = "/api/0/projects/acme/mobile-app/files/difs/assemble/";

const api = useFakeApi({
  afterReset: (a) => {
    a.state.store.delete("chunks");
    a.state.store.delete("difs");
  },
});

function workspace(): string {
  const dir = tempDir();
  copyFileSync(FIXTURE, join(dir, "mapping.txt"));
  return dir;
}

describe("proguard", () => {
  test("uuid: the UUID sentry-cli computes for the same file; --json", async () => {
    const dir = workspace();
    const r = await runCli(["proguard", "uuid", "mapping.txt"], { cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`${SENTRY_CLI_UUID}\n`);
    const j = await runCli(["proguard", "uuid", "mapping.txt", "--json"], { cwd: dir });
    expect(JSON.parse(j.stdout)).toEqual({ path: "mapping.txt", uuid: SENTRY_CLI_UUID });
    writeFileSync(join(dir, "notes.txt"), "hello\n");
    const bad = await runCli(["proguard", "uuid", "notes.txt"], { cwd: dir });
    expect(bad.exitCode).toBe(21);
    expect(bad.stderr).toContain("notes.txt is not a ProGuard/R8 mapping file");
  });

  test("upload: name /proguard/<uuid>.txt without debug_id; --write-properties keeps other keys and the mode", async () => {
    const dir = workspace();
    const configDir = tempDir();
    const props = join(dir, "sentry-debug-meta.properties");
    writeFileSync(props, "# generated\nio.sentry.bundle-ids=abc\nio.sentry.ProguardUuids=old\n");
    chmodSync(props, 0o640);
    const r = await runCli(
      [
        "proguard",
        "upload",
        "mapping.txt",
        "acme/mobile-app",
        "--write-properties",
        "sentry-debug-meta.properties",
        "--json",
      ],
      { api, token: USER_TOKEN, cwd: dir, configDir },
    );
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      org: "acme",
      project: "mobile-app",
      uploaded: true,
      mappings: [{ path: "mapping.txt", uuid: SENTRY_CLI_UUID, state: "created" }],
    });
    const body = JSON.parse(api.requestsTo(ASSEMBLE)[0]?.body ?? "");
    expect(Object.values(body)).toEqual([
      { name: `/proguard/${SENTRY_CLI_UUID}.txt`, chunks: [expect.stringMatching(/^[0-9a-f]{40}$/)] },
    ]);
    expect(readFileSync(props, "utf8")).toBe(
      `# generated\nio.sentry.bundle-ids=abc\nio.sentry.ProguardUuids=${SENTRY_CLI_UUID}\n`,
    );
    expect(statSync(props).mode & 0o777).toBe(0o640);
    expect([...difStore(api.state).difs.values()][0]?.debugId).toBe(SENTRY_CLI_UUID);
    // Again: the service has it; one assemble request, no chunk.
    api.requests.length = 0;
    chunkStore(api.state).posts.length = 0;
    const again = await runCli(["proguard", "upload", "mapping.txt", "acme/mobile-app"], {
      api,
      token: USER_TOKEN,
      cwd: dir,
      configDir,
    });
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toBe(`OK  ${SENTRY_CLI_UUID}  mapping.txt\n`);
    expect(api.requests.map((q) => q.path)).toEqual([ASSEMBLE]);
    expect(chunkStore(api.state).posts).toEqual([]);
  });

  test("--write-properties naming a FIFO: a clear error at once, never a hang", async () => {
    const dir = workspace();
    expect(Bun.spawnSync(["mkfifo", join(dir, "p.properties")]).exitCode).toBe(0);
    const r = await runCli(
      ["proguard", "upload", "mapping.txt", "--no-upload", "--write-properties", "p.properties"],
      { cwd: dir, subprocess: true, timeoutMs: 15_000 },
    );
    expect(r.exitCode).toBe(21);
    expect(r.stderr).toBe("Error: Cannot read p.properties: a FIFO, not a regular file.\n");
  });

  test("--no-upload writes the properties and sends nothing; --require-one; --uuid forces the UUID", async () => {
    const dir = workspace();
    const r = await runCli(
      ["proguard", "upload", "mapping.txt", "--no-upload", "--write-properties", "p.properties", "--json"],
      { cwd: dir },
    );
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      uploaded: false,
      mappings: [{ uuid: SENTRY_CLI_UUID, state: "skipped" }],
    });
    expect(readFileSync(join(dir, "p.properties"), "utf8")).toBe(
      `io.sentry.ProguardUuids=${SENTRY_CLI_UUID}\n`,
    );
    copyFileSync(FIXTURE, join(dir, "second.txt"));
    const two = await runCli(
      ["proguard", "upload", "mapping.txt", "second.txt", "--no-upload", "--require-one"],
      { cwd: dir },
    );
    expect(two.exitCode).toBe(21);
    expect(two.stderr).toContain("exactly one mapping file is needed, got 2");
    const forced = await runCli(
      [
        "proguard",
        "upload",
        "mapping.txt",
        "acme/mobile-app",
        "--uuid",
        "11111111-2222-5333-8444-555555555555",
        "--dry-run",
        "--json",
      ],
      { api, token: USER_TOKEN, cwd: dir },
    );
    expect(Object.values(JSON.parse(forced.stdout).requests[0].body)[0]).toMatchObject({
      name: "/proguard/11111111-2222-5333-8444-555555555555.txt",
    });
    expect(api.requests).toEqual([]);
  });

  test("--release waits for processing, then ties the mapping to the release", async () => {
    const dir = workspace();
    let now = 0;
    const { runInProcess } = await import("../helpers/cli.ts");
    const r = await runInProcess(
      ["proguard", "upload", "mapping.txt", "acme/mobile-app", "--release", "1.2.0"],
      {
        env: {
          TRACKER_URL: api.url,
          TRACKER_AUTH_TOKEN: USER_TOKEN,
          TRACKER_CONFIG_DIR: tempDir(),
          TRACKER_PAGER: "",
        },
        cwd: dir,
        now: () => now,
        sleep: async (ms: number) => {
          now += ms;
        },
      },
    );
    expect(r.exitCode).toBe(0);
    expect(difStore(api.state).proguardReleases).toEqual([
      { project: "mobile-app", release_name: "1.2.0", proguard_uuid: SENTRY_CLI_UUID },
    ]);
  });
});
