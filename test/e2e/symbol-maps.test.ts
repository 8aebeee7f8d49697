import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { chunkStore } from "../fake-api/routes/chunks.ts";
import { difStore } from "../fake-api/routes/difs.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, runInProcess, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const ASSEMBLE = "/api/0/projects/acme/mobile-app/files/difs/assemble/";
const BULK = "/api/0/organizations/acme/code-mappings/bulk/";
const ID = "3249d99d-0c40-4931-8610-f4e4fb0b6936";

const api = useFakeApi({
  afterReset: (a) => {
    a.state.store.delete("chunks");
    a.state.store.delete("difs");
  },
});

function inProcess(args: string[], cwd: string) {
  let now = 0;
  return runInProcess(args, {
    env: {
      TRACKER_URL: api.url,
      TRACKER_AUTH_TOKEN: USER_TOKEN,
      TRACKER_CONFIG_DIR: tempDir(),
      TRACKER_PAGER: "",
    },
    cwd,
    now: () => now,
    sleep: async (ms: number) => {
      now += ms;
    },
  });
}

describe("dart-symbol-map upload", () => {
  test("uploads the map with its name and --debug-id, waits until ok", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "obfuscation.map.json"), JSON.stringify(["MaterialApp", "ex", "Scaffold", "Ky"]));
    const r = await inProcess(
      ["dart-symbol-map", "upload", "obfuscation.map.json", "acme/mobile-app", "--debug-id", ID, "--json"],
      dir,
    );
    expect(r.stderr).toBe("Waiting for the service to process 1 file(s) (0 s of 300 s)\n");
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).files[0]).toMatchObject({
      name: "obfuscation.map.json",
      debugId: ID,
      state: "ok",
    });
    const body = JSON.parse(api.requestsTo(ASSEMBLE)[0]?.body ?? "");
    expect(Object.values(body)).toEqual([
      { name: "obfuscation.map.json", debug_id: ID, chunks: [expect.any(String)] },
    ]);
    expect([...difStore(api.state).difs.values()][0]).toMatchObject({
      symbolType: "dartsymbolmap",
      debugId: ID,
    });
  });

  test("an odd number of entries is refused before anything is sent; a service without dartsymbolmap is refused", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "odd.json"), JSON.stringify(["a", "b", "c"]));
    const r = await runCli(["dart-symbol-map", "upload", "odd.json", "acme/mobile-app", "--debug-id", ID], {
      api,
      token: USER_TOKEN,
      cwd: dir,
    });
    expect(r.exitCode).toBe(21);
    expect(r.stderr).toContain("Invalid dartsymbolmap: expected an even number of entries, got 3");
    expect(api.requests).toEqual([]);
    writeFileSync(join(dir, "ok.json"), JSON.stringify(["a", "b"]));
    chunkStore(api.state).options.accept = ["debug_files", "artifact_bundles"];
    const old = await runCli(["dart-symbol-map", "upload", "ok.json", "acme/mobile-app", "--debug-id", ID], {
      api,
      token: USER_TOKEN,
      cwd: dir,
    });
    expect(old.exitCode).toBe(20);
    expect(old.stderr).toContain("does not accept dartsymbolmap");
    const dry = await runCli(
      ["dart-symbol-map", "upload", "ok.json", "acme/mobile-app", "--debug-id", ID, "--dry-run", "--json"],
      { api, token: USER_TOKEN, cwd: dir },
    );
    expect(JSON.parse(dry.stdout)).toMatchObject({
      dryRun: true,
      requests: [{ method: "POST", path: ASSEMBLE }],
    });
  });
});

describe("code-mappings upload", () => {
  function mappings(n: number): string {
    const dir = tempDir();
    const rows = Array.from({ length: n }, (_, i) => ({
      stackRoot: `com/example/m${i}`,
      sourceRoot: `app/src/main/java/com/example/m${i}`,
    }));
    writeFileSync(join(dir, "mappings.json"), JSON.stringify(rows));
    return dir;
  }

  test("batches of 300, created then updated, counts printed", async () => {
    const dir = mappings(301);
    const args = [
      "code-mappings",
      "upload",
      "mappings.json",
      "acme/mobile-app",
      "--repo",
      "acme/android",
      "--default-branch",
      "main",
    ];
    const r = await runCli([...args, "--json"], { api, token: USER_TOKEN, cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      repository: "acme/android",
      defaultBranch: "main",
      created: 301,
      updated: 0,
      errors: 0,
    });
    expect(api.requestsTo(BULK).map((q) => JSON.parse(q.body).mappings.length)).toEqual([300, 1]);
    const again = await runCli(args, { api, token: USER_TOKEN, cwd: dir });
    expect(again.stdout).toBe("Created: 0, Updated: 301, Errors: 0\n");
  });

  test("an unknown repository names it; --dry-run prints the requests and sends nothing", async () => {
    const dir = mappings(2);
    const r = await runCli(
      [
        "code-mappings",
        "upload",
        "mappings.json",
        "acme/mobile-app",
        "--repo",
        "acme/nope",
        "--default-branch",
        "main",
      ],
      {
        api,
        token: USER_TOKEN,
        cwd: dir,
      },
    );
    expect(r.exitCode).toBe(30);
    expect(r.stderr).toContain("Repository not found: acme/nope");
    api.requests.length = 0;
    const dry = await runCli(
      [
        "code-mappings",
        "upload",
        "mappings.json",
        "acme/mobile-app",
        "--repo",
        "acme/android",
        "--default-branch",
        "dev",
        "--dry-run",
        "--json",
      ],
      { api, token: USER_TOKEN, cwd: dir },
    );
    expect(JSON.parse(dry.stdout)).toEqual({
      dryRun: true,
      requests: [
        {
          method: "POST",
          path: BULK,
          body: {
            project: "mobile-app",
            repository: "acme/android",
            defaultBranch: "dev",
            mappings: [
              { stackRoot: "com/example/m0", sourceRoot: "app/src/main/java/com/example/m0" },
              { stackRoot: "com/example/m1", sourceRoot: "app/src/main/java/com/example/m1" },
            ],
          },
        },
      ],
    });
    expect(api.requests).toEqual([]);
  });

  test("without --repo and --default-branch: origin's owner/repo and origin's HEAD branch", async () => {
    const dir = mappings(1);
    const git = (...args: string[]) =>
      Bun.spawnSync(["git", ...args], { cwd: dir, env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null" } });
    git("init", "-q");
    git("remote", "add", "origin", "git@github.com:acme/android.git");
    git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/trunk");
    const r = await runCli(
      ["code-mappings", "upload", "mappings.json", "acme/mobile-app", "--dry-run", "--json"],
      { api, token: USER_TOKEN, cwd: dir },
    );
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).requests[0].body).toMatchObject({
      repository: "acme/android",
      defaultBranch: "trunk",
    });
  });
});

describe("files named on the command line are read only when they are regular files", () => {
  test.each([
    [["code-mappings", "upload", "pipe.json", "acme/mobile-app", "--repo", "acme/android"]],
    [["dart-symbol-map", "upload", "pipe.json", "acme/mobile-app", "--debug-id", ID]],
    [["proguard", "uuid", "pipe.json"]],
  ])("%p: a FIFO is a clear error at once (exit 21), never a hang", async (args) => {
    const dir = tempDir();
    expect(Bun.spawnSync(["mkfifo", join(dir, "pipe.json")]).exitCode).toBe(0);
    const r = await runCli(args, { api, token: USER_TOKEN, cwd: dir, subprocess: true, timeoutMs: 15_000 });
    expect(r.exitCode).toBe(21);
    expect(r.stderr).toBe("Error: pipe.json is not a regular file.\n");
  });
});
