import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { receivedItems, resetMonitorStore } from "../fake-api/routes/monitors.ts";
import { dsnFor, USER_TOKEN } from "../fake-api/seed.ts";
import { cliCommand, runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi({ afterReset: (a) => resetMonitorStore(a.state) });
// initech/tps-reports has a self-hosted style DSN: its host is the fake's control listener.
const ENVELOPE = "/api/300021/envelope/";
const dsn = () => {
  const p = api.state.projects.find((x) => x.id === "300021");
  if (!p) throw new Error("seed changed");
  const text = dsnFor(api.state, p);
  expect(new URL(text).host).toBe(new URL(api.url).host);
  return text;
};

/** Runs tracker as a real process (exit codes and signals of a real job). */
function run(args: string[], env: Record<string, string> = {}) {
  return runCli(["monitor", "run", ...args], { subprocess: true, env: { TRACKER_DSN: dsn(), ...env } });
}

function checkIns() {
  return receivedItems(api.state, "check_in");
}

describe("monitor run (real process)", () => {
  test("a job that succeeds: exit 0, in_progress then ok with one check_in_id, DSN auth, no token", async () => {
    const r = await run(["nightly", "--env", "production", "--", "sh", "-c", "exit 0"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const reqs = api.requestsTo(ENVELOPE, "POST");
    expect(reqs).toHaveLength(2);
    for (const q of reqs) {
      expect(q.headers["content-type"]).toBe("application/x-sentry-envelope");
      expect(q.headers["x-sentry-auth"]).toMatch(
        /^Sentry sentry_key=[0-9a-f]{32}, sentry_version=7, sentry_client=tracker\/\S+$/,
      );
      expect(q.headers.authorization).toBeUndefined();
      expect(q.status).toBe(200);
    }
    const [open, close] = checkIns();
    expect(open).toMatchObject({ monitor_slug: "nightly", status: "in_progress", environment: "production" });
    expect(open?.check_in_id).toMatch(/^[0-9a-f]{32}$/);
    expect(open?.duration).toBeUndefined();
    expect(close).toMatchObject({ check_in_id: open?.check_in_id, status: "ok", environment: "production" });
    expect(typeof close?.duration).toBe("number");
    expect(open?.monitor_config).toBeUndefined();
  });

  test("a job that fails: its exit code, an error check-in", async () => {
    const r = await run(["nightly", "--", "sh", "-c", "exit 3"]);
    expect(r.exitCode).toBe(3);
    // The job's exit code says it all: tracker adds nothing to the job's own output.
    expect(r.stderr).toBe("");
    expect(checkIns().map((c) => c.status)).toEqual(["in_progress", "error"]);
  });

  test("a job killed by SIGTERM: exit 143, error check-in", async () => {
    const r = await run(["nightly", "--", "sh", "-c", "kill -TERM $$"]);
    expect(r.exitCode).toBe(143);
    expect(r.stderr).toContain("SIGTERM");
    expect(checkIns().map((c) => c.status)).toEqual(["in_progress", "error"]);
  });

  test("a command that does not exist: exit 127 like a shell, error check-in", async () => {
    const r = await run(["nightly", "--", "no-such-command-for-tracker-tests"]);
    expect(r.exitCode).toBe(127);
    expect(r.stderr).toBe("Error: no-such-command-for-tracker-tests: command not found\n");
    expect(checkIns().map((c) => c.status)).toEqual(["in_progress", "error"]);
  });

  test("SIGTERM to tracker is passed on to the job; tracker still sends the error check-in", async () => {
    const proc = Bun.spawn([...cliCommand(), "monitor", "run", "nightly", "--", "sleep", "20"], {
      env: { ...process.env, TRACKER_DSN: dsn(), TRACKER_CONFIG_DIR: tempDir() },
      cwd: tempDir(),
      stdout: "pipe",
      stderr: "pipe",
    });
    // The in_progress check-in is sent as the job starts; after it arrives the handlers are in place.
    while (checkIns().length === 0) await Bun.sleep(20);
    await Bun.sleep(200);
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(143);
    expect(checkIns().map((c) => c.status)).toEqual(["in_progress", "error"]);
  });

  test("--schedule upserts the monitor: monitor_config on both check-ins, then listed", async () => {
    const r = await run([
      "nightly-import",
      "--schedule",
      "0 3 * * *",
      "--check-in-margin",
      "5",
      "--max-runtime",
      "30",
      "--timezone",
      "Europe/Vienna",
      "--",
      "true",
    ]);
    expect(r.exitCode).toBe(0);
    const config = {
      schedule: { type: "crontab", value: "0 3 * * *" },
      checkin_margin: 5,
      max_runtime: 30,
      timezone: "Europe/Vienna",
    };
    expect(checkIns().map((c) => c.monitor_config)).toEqual([config, config]);
    const list = await runCli(["monitor", "list", "initech"], { api, token: USER_TOKEN });
    expect(list.stdout).toContain("nightly-import\tnightly-import\t0 3 * * *\t");
    const bad = await run(["x", "--interval", "10 fortnights", "--", "true"]);
    expect(bad.exitCode).toBe(21);
    expect(bad.stderr).toContain("--interval must be");
  });
});

describe("monitor run when the service fails (the job is never affected)", () => {
  async function timed(args: string[], env: Record<string, string> = {}) {
    const marker = join(tempDir(), "ran");
    const started = performance.now();
    const r = await run([...args, "--", "sh", "-c", `touch ${marker}; sleep 0.3`], env);
    return { ...r, seconds: (performance.now() - started) / 1000, ran: existsSync(marker) };
  }

  test("down (connection refused): the job runs, exit 0, one warning line, < job + 3.5 s", async () => {
    const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const port = s.port;
    s.stop(true);
    const key = api.state.projects.find((x) => x.id === "300021")?.publicKey;
    const r = await timed(["nightly"], { TRACKER_DSN: `http://${key}@127.0.0.1:${port}/300021` });
    expect(r.ran).toBe(true);
    expect(r.exitCode).toBe(0);
    expect(r.seconds).toBeLessThan(0.3 + 3.5);
    expect(r.stderr.split("\n").filter(Boolean)).toHaveLength(1);
    expect(r.stderr).toStartWith("Warning: The in_progress check-in of nightly was not sent");
  });

  test("slow (10 s per envelope): the job starts at once, exit 0, one warning line, < job + 3.5 s", async () => {
    api.inject({ path: ENVELOPE, method: "POST", delayMs: 10_000, times: 2 });
    const r = await timed(["nightly"]);
    expect(r.ran).toBe(true);
    expect(r.exitCode).toBe(0);
    expect(r.seconds).toBeLessThan(0.3 + 3.5);
    expect(r.stderr.split("\n").filter(Boolean)).toHaveLength(1);
    expect(r.stderr).toContain("Warning: ");
    expect(api.requestsTo(ENVELOPE, "POST")).toHaveLength(2);
  });

  test("refusing (401 for a key of another project): exit 0, one warning line", async () => {
    const other = api.state.projects.find((x) => x.id === "300001")?.publicKey;
    const r = await timed(["nightly"], { TRACKER_DSN: `${api.url.replace("//", `//${other}@`)}/300021` });
    expect(r.exitCode).toBe(0);
    expect(r.stderr.split("\n").filter(Boolean)).toHaveLength(1);
    expect(r.stderr).toContain("status 401");
    expect(api.requestsTo(ENVELOPE, "POST").map((q) => q.status)).toEqual([401, 401]);
  });

  test("no DSN and no token: the job still runs, exit = the job's, one warning saying why there are no check-ins", async () => {
    const marker = join(tempDir(), "ran");
    const r = await runCli(["monitor", "run", "nightly", "--", "touch", marker], { api });
    expect(r.exitCode).toBe(0);
    expect(existsSync(marker)).toBe(true);
    expect(r.stderr).toBe(
      "Warning: No check-ins for nightly: no DSN found (TRACKER_DSN, SENTRY_DSN, .sentryclirc [auth] dsn, .env files, source code) and no token to ask one with. The job runs without them.\n",
    );
    expect(api.requests).toEqual([]);
  });
});

test("by token: without a DSN, the target project's DSN is asked with the token (one request) and the job runs", async () => {
  const r = await runCli(["monitor", "run", "nightly", "--", "sh", "-c", "exit 0"], {
    subprocess: true,
    api,
    token: USER_TOKEN,
    env: { TRACKER_ORG: "initech", TRACKER_PROJECT: "tps-reports" },
  });
  expect(r.stderr).toBe("Using initech/tps-reports (from TRACKER_ORG/TRACKER_PROJECT)\n");
  expect(r.exitCode).toBe(0);
  expect(api.requests.filter((q) => q.path.endsWith("/keys/"))).toHaveLength(1);
  const envelopes = api.requestsTo(ENVELOPE, "POST");
  expect(envelopes).toHaveLength(2);
  for (const q of envelopes) expect(q.headers.authorization).toBeUndefined();
  expect(checkIns().map((c) => c.status)).toEqual(["in_progress", "ok"]);
});
