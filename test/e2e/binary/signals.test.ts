import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { configureOAuth, TEST_CLIENT_ID } from "../../fake-api/routes/oauth.ts";
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

test("Ctrl-C while waiting for the device-flow approval: exit 130, the stored login unchanged", async () => {
  const configDir = tempDir("tracker-cfg-");
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith("TRACKER_")) env[k] = v;
  Object.assign(env, { TRACKER_CONFIG_DIR: configDir, TRACKER_URL: api.url });
  const run = (args: string[], extra: Record<string, string> = {}) =>
    Bun.spawn([...cliCommand(), ...args], {
      cwd: configDir,
      env: { ...env, ...extra },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
  const first = run(["auth", "login", "--token", USER_TOKEN]);
  expect(await first.exited).toBe(0);
  const stored = () => {
    const db = new Database(join(configDir, "tracker.db"), { readonly: true });
    const rows = db.query("SELECT * FROM logins").all();
    const check = db.query("PRAGMA integrity_check").get() as { integrity_check: string };
    db.close();
    return { rows, check: check.integrity_check };
  };
  const before = stored();
  expect(before.rows).toHaveLength(1);
  // The fake asks for a 5 s polling interval: the client is waiting when the signal comes.
  configureOAuth(api.state, { interval: 5, pollAnswers: ["authorization_pending"] });
  api.reset();
  const proc = run(["auth", "login", "--force"], { TRACKER_CLIENT_ID: TEST_CLIENT_ID });
  for (let i = 0; i < 500 && api.requestsTo("/oauth/device/code/", "POST").length === 0; i++)
    await Bun.sleep(10);
  expect(api.requestsTo("/oauth/device/code/", "POST")).toHaveLength(1);
  await Bun.sleep(300);
  proc.kill("SIGINT");
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  expect(stderr).toContain("enter the code");
  expect({ code, stdout }).toEqual({ code: 130, stdout: "" });
  expect(api.requestsTo("/oauth/token/", "POST")).toHaveLength(0);
  expect(stored()).toEqual(before);
  api.reset();
}, 20_000);
