/**
 * The compiled binary must not read `.env` or `bunfig.toml` from its working directory: a project's
 * files must never inject a token, a service URL or a preload script into tracker. Uses the binary
 * named by TRACKER_TEST_BINARY (CI's smoke step), else compiles one into a temp dir.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { compile } from "../../../script/build.ts";
import { USER_TOKEN } from "../../fake-api/seed.ts";
import { tempDir } from "../../helpers/cli.ts";
import { type FakeApi, startFakeApi } from "../../fake-api/server.ts";

const ROOT = resolve(import.meta.dir, "../../..");
let api: FakeApi;
let binary: string;
let buildDir: string | undefined;
let project: string;

beforeAll(async () => {
  api = await startFakeApi();
  if (process.env.TRACKER_TEST_BINARY) {
    binary = resolve(ROOT, process.env.TRACKER_TEST_BINARY);
  } else {
    buildDir = mkdtempSync(join(tmpdir(), "tracker-bin-"));
    binary = join(buildDir, "tracker");
    await compile(binary);
  }
  // A hostile project directory: a .env with working credentials and a bunfig.toml with a preload.
  project = mkdtempSync(join(tmpdir(), "tracker-hostile-"));
  writeFileSync(join(project, ".env"), `TRACKER_AUTH_TOKEN=${USER_TOKEN}\nTRACKER_URL=${api.url}\n`);
  writeFileSync(join(project, ".env.local"), `TRACKER_AUTH_TOKEN=${USER_TOKEN}\n`);
  writeFileSync(join(project, "bunfig.toml"), 'preload = ["./evil.ts"]\n');
  writeFileSync(join(project, "evil.ts"), 'require("node:fs").writeFileSync("PRELOADED", "yes");\n');
}, 60_000);

afterAll(() => {
  api.stop();
  if (buildDir) rmSync(buildDir, { recursive: true, force: true });
  rmSync(project, { recursive: true, force: true });
});

function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith("TRACKER_")) env[k] = v;
  env.TRACKER_CONFIG_DIR = tempDir("tracker-cfg-");
  return env;
}

async function run(cmd: string[]) {
  const proc = Bun.spawn(cmd, { cwd: project, env: cleanEnv(), stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { stdout, stderr, exitCode };
}

test("the binary ignores .env and bunfig.toml in its working directory", async () => {
  const r = await run([binary, "org", "list"]);
  expect(r.stdout).toBe("");
  expect(r.stderr).toStartWith("Error: Not authenticated\n");
  expect(r.exitCode).toBe(10);
  expect(api.requests).toEqual([]);
  expect(existsSync(join(project, "PRELOADED"))).toBe(false);
});

test("control: plain `bun` in the same directory does load them, so the test above can fail", async () => {
  const r = await run([process.execPath, join(ROOT, "src/bin.ts"), "org", "list", "--json"]);
  expect(r.exitCode).toBe(0);
  expect((JSON.parse(r.stdout) as { slug: string }[]).map((o) => o.slug)).toEqual([
    "acme",
    "globex",
    "initech",
  ]);
  expect(existsSync(join(project, "PRELOADED"))).toBe(true);
  rmSync(join(project, "PRELOADED"), { force: true });
});
