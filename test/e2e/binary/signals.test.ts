import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { USER_TOKEN } from "../../fake-api/seed.ts";
import { type FakeApi, startFakeApi } from "../../fake-api/server.ts";
import { cliCommand, tempDir } from "../../helpers/cli.ts";

// A distant, slow service: every answer waits, so a long listing is still running when stopped.
// The default signal handling is the contract here (exit 128+signal, as shells report it); SQLite
// commits are atomic, so the database must be consistent whatever was in flight.
let api: FakeApi;
beforeAll(async () => {
  api = await startFakeApi({ latencyMs: 400 });
});
afterAll(() => api.stop());

async function interrupted(signal: "SIGTERM" | "SIGINT") {
  const configDir = tempDir("tracker-cfg-");
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith("TRACKER_")) env[k] = v;
  Object.assign(env, { TRACKER_CONFIG_DIR: configDir, TRACKER_URL: api.url, TRACKER_AUTH_TOKEN: USER_TOKEN });
  const proc = Bun.spawn([...cliCommand(), "issue", "list", "acme/web", "-n", "1000", "--json"], {
    cwd: tempDir("tracker-cwd-"),
    env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  // Wait until the listing is under way (its first request reached the server).
  for (let i = 0; i < 200 && api.requests.length === 0; i++) await Bun.sleep(10);
  proc.kill(signal);
  const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  const db = new Database(join(configDir, "tracker.db"), { readonly: true });
  const check = db.query("PRAGMA integrity_check").get() as { integrity_check: string };
  db.close();
  api.reset();
  return { code, stdout, check: check.integrity_check };
}

test("SIGTERM during a long listing: exit 143, nothing on stdout, the database consistent", async () => {
  expect(await interrupted("SIGTERM")).toEqual({ code: 143, stdout: "", check: "ok" });
}, 20_000);

test("Ctrl-C (SIGINT) during a long listing: exit 130", async () => {
  expect(await interrupted("SIGINT")).toEqual({ code: 130, stdout: "", check: "ok" });
}, 20_000);
