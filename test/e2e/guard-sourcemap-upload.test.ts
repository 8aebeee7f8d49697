/**
 * Issue 32 §0 guards of `sourcemap upload`: the server's `maxWait` is seconds, and a remembered
 * bundle is not reused when assemble answers `not_found` (the service no longer has it).
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { chunkStore } from "../fake-api/routes/chunks.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runInProcess, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const OPTIONS = "/api/0/organizations/acme/chunk-upload/";
const ASSEMBLE = "/api/0/organizations/acme/artifactbundle/assemble/";
const ID = "aaf4c61d-dcc5-58a2-9abe-de0f3b482cd9";

const api = useFakeApi({
  afterReset: (a) => {
    a.state.store.delete("chunks");
  },
});

/** A build directory with one injected file and its map. */
function build(): string {
  const dir = tempDir();
  writeFileSync(join(dir, "app.js"), `a();\n//# sourceMappingURL=app.js.map\n//# debugId=${ID}\n`);
  writeFileSync(
    join(dir, "app.js.map"),
    JSON.stringify({ version: 3, mappings: "AAAA", sources: ["a.ts"], debug_id: ID }),
  );
  return dir;
}

/** Runs the CLI in-process with a fake clock whose sleeps are recorded (nothing really waits). */
function upload(dir: string, configDir: string, extra: string[] = []) {
  const slept: number[] = [];
  let now = Date.parse("2026-01-15T12:00:00Z");
  const run = runInProcess(["sourcemap", "upload", ".", "acme/web", "--json", ...extra], {
    env: {
      TRACKER_URL: api.url,
      TRACKER_AUTH_TOKEN: USER_TOKEN,
      TRACKER_CONFIG_DIR: configDir,
      TRACKER_PAGER: "",
    },
    cwd: dir,
    now: () => now,
    sleep: async (ms: number) => {
      slept.push(ms);
      now += ms;
    },
  });
  return run.then((r) => ({ ...r, slept }));
}

describe("sourcemap upload guards (real CLI)", () => {
  test("--wait waits the server's maxWait in seconds (3 → three polls a second apart), not milliseconds", async () => {
    const s = chunkStore(api.state);
    s.pollsBeforeDone = 1000;
    (s.options as Record<string, unknown>).maxWait = 3;
    const r = await upload(build(), tempDir(), ["--wait"]);
    expect(r.slept).toEqual([1000, 1000, 1000]);
    // The first assemble, the one after the chunks, then one per poll.
    expect(api.requestsTo(ASSEMBLE)).toHaveLength(5);
  });

  test("a remembered bundle is rebuilt when assemble answers not_found, even with no chunk missing", async () => {
    const dir = build();
    const configDir = tempDir();
    const first = await upload(dir, configDir);
    expect(first.exitCode).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ reused: false, state: "created" });
    api.reset();
    // The service answers the remembered checksum with not_found (it dropped the bundle).
    api.inject({
      method: "POST",
      path: ASSEMBLE,
      status: 200,
      body: { state: "not_found", missingChunks: [] },
    });
    const again = await upload(dir, configDir);
    expect(again.exitCode).toBe(0);
    const doc = JSON.parse(again.stdout);
    expect(doc.reused).toBe(false);
    expect(doc.checksum).toBe(JSON.parse(first.stdout).checksum);
    expect(doc.state).not.toBe("not_found");
    expect(api.requests.map((q) => `${q.method} ${q.path}`)).toEqual([
      `POST ${ASSEMBLE}`,
      `GET ${OPTIONS}`,
      `POST ${ASSEMBLE}`,
    ]);
  });
});
