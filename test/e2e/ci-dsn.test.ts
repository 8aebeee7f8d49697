/**
 * Issue 31 §2 and issue 32 §5: `monitor run` never holds up or fails the job (a failed DSN lookup,
 * no organization or project, a refused DSN: the job runs, one warning, its exit code), its edges
 * (a target where the command goes, a missing slug, an out-of-range crontab, SIGHUP), and the DSN
 * of `event send`/`monitor run` from `.sentryclirc` `[auth] dsn` or asked by token.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mintOrgToken } from "../fake-api/routes/auth.ts";
import { receivedItems, resetMonitorStore } from "../fake-api/routes/monitors.ts";
import { dsnFor, USER_TOKEN } from "../fake-api/seed.ts";
import { cliCommand, runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi({ afterReset: (a) => resetMonitorStore(a.state) });
// initech/tps-reports has a self-hosted style DSN: its host is the fake's control listener.
const ENVELOPE = "/api/300021/envelope/";
const KEYS = "/api/0/projects/initech/tps-reports/keys/";

function tpsDsn(): string {
  const p = api.state.projects.find((x) => x.id === "300021");
  if (!p) throw new Error("seed changed");
  return dsnFor(api.state, p);
}

/** A repository (a `.git` marker) with the given files; HOME is its parent. */
function repo(files: Record<string, string> = {}): { home: string; dir: string } {
  const home = tempDir("tracker-home-");
  const dir = join(home, "proj");
  mkdirSync(join(dir, ".git"), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return { home, dir };
}

/** `monitor run <args>` whose job touches a marker file; reports whether the job ran. */
async function monitor(
  args: string[],
  opts: { env?: Record<string, string>; token?: string; cwd?: string } = {},
) {
  const marker = join(tempDir(), "ran");
  const r = await runCli(["monitor", "run", ...args, "--", "touch", marker], { api, ...opts });
  return {
    ...r,
    ran: existsSync(marker),
    warnings: r.stderr.split("\n").filter((l) => l.startsWith("Warning: ")),
  };
}

describe("monitor run: the job always runs", () => {
  test("a token but no organization or project: the job runs, one warning names the environment to set", async () => {
    const r = await monitor(["nightly"], { token: USER_TOKEN });
    expect(r.ran).toBe(true);
    expect(r.exitCode).toBe(0);
    expect(r.warnings).toEqual([
      "Warning: No check-ins for nightly: no DSN found, and no project to ask one for (TRACKER_ORG=<org> TRACKER_PROJECT=<project> tracker monitor run nightly -- <command>). The job runs without them.",
    ]);
    expect(api.requestsTo(ENVELOPE)).toEqual([]);
  });

  test("the project's DSN lookup fails (a server without the endpoint: 404): the job runs, exit = the job's", async () => {
    api.inject({ path: KEYS, status: 404, times: 1 });
    const marker = join(tempDir(), "ran");
    const r = await runCli(["monitor", "run", "nightly", "--", "sh", "-c", `touch ${marker}; exit 4`], {
      api,
      token: USER_TOKEN,
      env: { TRACKER_ORG: "initech", TRACKER_PROJECT: "tps-reports" },
    });
    expect(existsSync(marker)).toBe(true);
    expect(r.exitCode).toBe(4);
    const warnings = r.stderr.split("\n").filter((l) => l.startsWith("Warning: "));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toStartWith("Warning: No check-ins for nightly: Request failed with status 404");
  });

  test("the server is down: the job runs, one warning", async () => {
    const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const url = `http://127.0.0.1:${s.port}`;
    s.stop(true);
    const r = await monitor(["nightly"], {
      token: USER_TOKEN,
      env: { TRACKER_URL: url, TRACKER_ORG: "initech", TRACKER_PROJECT: "tps-reports" },
    });
    expect(r.ran).toBe(true);
    expect(r.exitCode).toBe(0);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toContain("Could not connect");
  }, 20_000);

  test("a plain-http DSN off loopback found in the repository: the job runs, one warning, nothing sent", async () => {
    const { home, dir } = repo({
      ".env": "SENTRY_DSN=http://0123456789abcdef0123456789abcdef@sentry.invalid:9000/7\n",
    });
    const r = await monitor(["nightly"], { cwd: dir, env: { HOME: home } });
    expect(r.ran).toBe(true);
    expect(r.exitCode).toBe(0);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toContain("No check-ins for nightly");
    expect(api.requests).toEqual([]);
  });

  test("an org token and a project: the organization comes from the token, the DSN is asked, check-ins sent", async () => {
    const token = mintOrgToken(api.state, "initech", ["org:ci", "project:read"]);
    const r = await monitor(["nightly"], {
      env: { SENTRY_AUTH_TOKEN: token, TRACKER_PROJECT: "tps-reports" },
    });
    expect(r.ran).toBe(true);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("Using initech/tps-reports (from environment and the org token)\n");
    expect(receivedItems(api.state, "check_in").map((c) => c.status)).toEqual(["in_progress", "ok"]);
  });

  test(".sentryclirc [auth] dsn is the check-ins' DSN (no token needed)", async () => {
    const { home, dir } = repo({ ".sentryclirc": `[auth]\ndsn = ${tpsDsn()}\n` });
    const r = await monitor(["nightly"], { cwd: dir, env: { HOME: home } });
    expect(r.stderr).toBe("");
    expect(r.ran).toBe(true);
    expect(api.requestsTo(ENVELOPE, "POST")).toHaveLength(2);
  });
});

describe("monitor run: what is refused before anything runs", () => {
  test("a target where the command goes: refused with the right form (--, the project in the environment)", async () => {
    const r = await runCli(["monitor", "run", "nightly", "acme/web"], { api });
    expect(r.exitCode).toBe(21);
    expect(r.stderr).toContain("'acme/web' would run as the command");
    expect(r.stderr).toContain(
      "TRACKER_ORG=acme TRACKER_PROJECT=web tracker monitor run nightly -- <command>",
    );
    expect(api.requests).toEqual([]);
  });

  test("the command without a slug before --: the slug is named as missing", async () => {
    const r = await runCli(["monitor", "run", "--", "./backup.sh", "--full"], { api });
    expect(r.exitCode).toBe(21);
    expect(r.stderr).toBe(
      "Error: The monitor slug is missing before --: tracker monitor run <slug> -- ./backup.sh --full\n",
    );
    const one = await runCli(["monitor", "run", "nightly"], { api });
    expect(one.exitCode).toBe(21);
    expect(one.stderr).toContain("Name the command after --: tracker monitor run nightly -- <command>");
  });

  test("a crontab out of range is refused (exit 21), the job does not run, nothing is sent", async () => {
    const r = await monitor(["nightly", "--schedule", "0 24 * * *"], { env: { TRACKER_DSN: tpsDsn() } });
    expect(r.exitCode).toBe(21);
    expect(r.ran).toBe(false);
    expect(r.stderr).toContain("the hour field (0-23) is wrong: 24 is outside 0-23");
    expect(api.requests).toEqual([]);
  });
});

test("SIGHUP to tracker is passed on to the job (exit 129); the error check-in is still sent", async () => {
  const ready = join(tempDir(), "ready");
  const proc = Bun.spawn(
    [...cliCommand(), "monitor", "run", "nightly", "--", "sh", "-c", `touch ${ready}; sleep 20`],
    {
      env: { ...process.env, TRACKER_DSN: tpsDsn(), TRACKER_CONFIG_DIR: tempDir() },
      cwd: tempDir(),
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  for (let i = 0; i < 200 && !existsSync(ready); i++) await Bun.sleep(25);
  proc.kill("SIGHUP");
  expect(await proc.exited).toBe(129);
  expect(receivedItems(api.state, "check_in").map((c) => c.status)).toEqual(["in_progress", "error"]);
}, 20_000);

describe("event send: where the DSN comes from", () => {
  test(".sentryclirc [auth] dsn", async () => {
    const { home, dir } = repo({ ".sentryclirc": `[auth]\ndsn=${tpsDsn()}\n` });
    const r = await runCli(["event", "send", "-m", "hello"], { api, cwd: dir, env: { HOME: home } });
    expect(r.stderr).toMatch(/^Sent to 127\.0\.0\.1:\d+ \(project 300021\); DSN from \.sentryclirc\.\n$/);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^[0-9a-f]{32}\n$/);
    expect(api.requestsTo(ENVELOPE, "POST")).toHaveLength(1);
  });

  test("no DSN anywhere: the project's DSN asked with the token and the target", async () => {
    const r = await runCli(["event", "send", "-m", "hello"], {
      api,
      token: USER_TOKEN,
      env: { TRACKER_ORG: "initech", TRACKER_PROJECT: "tps-reports" },
    });
    expect(r.exitCode).toBe(0);
    expect(api.requestsTo(KEYS, "GET")).toHaveLength(1);
    const sent = api.requestsTo(ENVELOPE, "POST");
    expect(sent).toHaveLength(1);
    expect(sent[0]?.headers.authorization).toBeUndefined();
  });

  test("a token but no project: exit 22 naming the environment to set, nothing sent", async () => {
    const r = await runCli(["event", "send", "-m", "hello"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(22);
    expect(r.stderr).toContain("TRACKER_ORG=<org> TRACKER_PROJECT=<project> tracker event send -m <message>");
    expect(api.requestsTo(ENVELOPE)).toEqual([]);
  });
});
