import { describe, expect, test } from "bun:test";
import { FAKE_NOW_MS } from "../fake-api/clock.ts";
import { addLog, logStore, NEWEST_WEB_LOG } from "../fake-api/routes/logs.ts";
import { TRACE_NESTED } from "../fake-api/routes/traces.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { cliCommand, runInProcess, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";
import { PromptCancelled } from "../../src/lib/errors.ts";

const EVENTS = "/api/0/organizations/acme/events/";
const NEWEST_NS = "1768478339985109000";
const api = useFakeApi({ afterReset: (a) => a.state.store.delete("logs") });

/**
 * Runs `log list … --follow` in-process; `onSleep(n)` runs at the n-th poll wait (the fake clock
 * advances), and the `stopAt`-th wait is where the person types Ctrl-C (the run ends with 130).
 */
async function follow(args: string[], onSleep: (n: number) => void = () => {}, stopAt = 11) {
  const sleeps: number[] = [];
  let clock = FAKE_NOW_MS;
  const env = {
    PATH: process.env.PATH,
    HOME: tempDir(),
    TRACKER_CONFIG_DIR: tempDir(),
    TRACKER_URL: api.url,
    TRACKER_AUTH_TOKEN: USER_TOKEN,
    TRACKER_PAGER: "",
  };
  const r = await runInProcess(["log", "list", "acme/web", "--follow", ...args], {
    env,
    cwd: tempDir(),
    now: () => clock,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
      if (sleeps.length >= stopAt) throw new PromptCancelled("Stopped following.");
      if (sleeps.length > 10) throw new Error("follow did not stop");
      onSleep(sleeps.length);
    },
  });
  return { ...r, sleeps };
}

/** Following one trace: its 3 acme/web logs are the first page; addLog adds to the same trace. */
const T = ["--trace", TRACE_NESTED];
const ids = (stdout: string) =>
  stdout
    .trimEnd()
    .split("\n")
    .map((l) => l.split("\t").at(-1));

describe("log list --follow", () => {
  test("newest page oldest first, then only new logs per poll (one request each); equal timestamps deduped", async () => {
    const r = await follow(
      [...T, "-n", "5"],
      (n) => {
        if (n !== 1) return;
        addLog(api.state, "a".repeat(32), 30_000);
        // Same nanosecond as the last log printed: polled again (>=), printed once.
        addLog(api.state, "b".repeat(32), 0, { ns: BigInt(NEWEST_NS) });
      },
      2,
    );
    expect(r.exitCode).toBe(130);
    expect(r.stderr).toBe("Error: Stopped following.\n");
    const printed = ids(r.stdout);
    expect(printed).toHaveLength(5);
    expect(printed.slice(0, 3)).toEqual([
      "10900000000000000000000000000003",
      "10900000000000000000000000000001",
      NEWEST_WEB_LOG,
    ]);
    expect(printed.slice(3)).toEqual(["b".repeat(32), "a".repeat(32)]);
    const reqs = api.requestsTo(EVENTS);
    expect(reqs).toHaveLength(2);
    expect(reqs[0]?.query.get("per_page")).toBe("5");
    expect(reqs[1]?.query.get("query")).toBe(`timestamp_precise:>=${NEWEST_NS} trace:${TRACE_NESTED}`);
    expect(reqs[1]?.query.get("sort")).toBe("timestamp");
    expect(reqs[1]?.query.get("statsPeriod")).toBe("10m");
    expect(r.sleeps).toEqual([2000, 2000]);
  });

  test("quiet polls print nothing; --interval sets the wait; each poll is one request", async () => {
    const r = await follow(
      [...T, "--interval", "5s"],
      (n) => {
        if (n === 3) addLog(api.state, "c".repeat(32), 5_000, { message: "worker restarted" });
      },
      4,
    );
    expect(r.exitCode).toBe(130);
    expect(r.sleeps).toEqual([5000, 5000, 5000, 5000]);
    const reqs = api.requestsTo(EVENTS);
    expect(reqs).toHaveLength(4);
    expect(reqs[3]?.query.get("query")).toBe(`timestamp_precise:>=${NEWEST_NS} trace:${TRACE_NESTED}`);
    expect(ids(r.stdout).at(-1)).toBe("c".repeat(32));
  });

  test("a failing poll is retried with backoff and reported once; it recovers", async () => {
    const r = await follow(
      [...T],
      (n) => {
        if (n === 1)
          api.inject({
            path: EVENTS,
            method: "GET",
            status: 500,
            body: { detail: "Internal Error" },
            times: 2,
          });
        if (n === 3) addLog(api.state, "d".repeat(32), 1_000);
      },
      4,
    );
    expect(r.exitCode).toBe(130);
    expect(r.sleeps).toEqual([2000, 4000, 8000, 2000]);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(2);
    expect(r.stderr).toContain("Polling for new logs failed");
    expect(ids(r.stdout).at(-1)).toBe("d".repeat(32));
    expect(api.requestsTo(EVENTS)).toHaveLength(4);
  });

  test("401 during a poll ends the follow with the authentication exit code", async () => {
    const r = await follow([...T, "-n", "9"], (n) => {
      if (n === 1)
        api.inject({ path: EVENTS, method: "GET", status: 401, body: { detail: "Invalid token" } });
    });
    expect([10, 11, 12]).toContain(r.exitCode);
    expect(r.stderr).toStartWith("Error: ");
  });

  test("--json prints JSON Lines, one log per line, as they arrive", async () => {
    const r = await follow(
      [...T, "--json"],
      (n) => {
        if (n === 1) addLog(api.state, "e".repeat(32), 500, { message: "line\nbreak" });
      },
      2,
    );
    expect(r.exitCode).toBe(130);
    const lines = r.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id)).toEqual([
      "10900000000000000000000000000003",
      "10900000000000000000000000000001",
      NEWEST_WEB_LOG,
      "e".repeat(32),
    ]);
    expect(lines[3]).toMatchObject({
      message: "line\nbreak",
      timestampPrecise: expect.stringMatching(/^\d{19}$/),
    });
  });

  test("-n bounds the logs shown before following, then it follows (as tail -f -n)", async () => {
    const r = await follow(
      [...T, "-n", "2"],
      (n) => {
        if (n === 1) addLog(api.state, "f".repeat(32), 1_000);
      },
      2,
    );
    expect(r.exitCode).toBe(130);
    expect(ids(r.stdout)).toEqual(["10900000000000000000000000000001", NEWEST_WEB_LOG, "f".repeat(32)]);
    const reqs = api.requestsTo(EVENTS);
    expect(reqs[0]?.query.get("per_page")).toBe("2");
    expect(reqs).toHaveLength(2);
  });

  test("flag combinations that cannot follow are validation errors", async () => {
    for (const extra of [
      ["-c", "last"],
      ["-s", "oldest"],
      ["--interval", "500ms"],
      ["--interval", "soon"],
    ]) {
      const r = await follow(extra);
      expect(r.exitCode).toBe(21);
    }
    expect(api.requests).toEqual([]);
    expect(logStore(api.state).length).toBeGreaterThan(0);
  });

  test("Ctrl-C (SIGINT) ends a real process with exit code 130", async () => {
    const proc = Bun.spawn([...cliCommand(), "log", "list", "acme/web", "-f", "--interval", "1s"], {
      cwd: tempDir(),
      env: {
        PATH: process.env.PATH ?? "",
        HOME: tempDir(),
        TRACKER_CONFIG_DIR: tempDir(),
        TRACKER_URL: api.url,
        TRACKER_AUTH_TOKEN: USER_TOKEN,
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    const reader = proc.stdout.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain("\t");
    proc.kill("SIGINT");
    expect(await proc.exited).toBe(130);
  });
});
