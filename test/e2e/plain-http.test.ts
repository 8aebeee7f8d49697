/**
 * Issue 31 §2: a plain-http URL or DSN to another machine (`http://sentry.invalid:…`, a name that
 * never resolves) is used when the user set it (environment variable or flag), with one warning;
 * one found in a repository's files needs TRACKER_ALLOW_HTTP=1. Loopback hosts count as this machine
 * in the code, so "it was used" is proven through an HTTP proxy that is the fake: the request for
 * `http://sentry.invalid:…` arrives there, in absolute form, and nothing leaves the machine.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { monitorStore, resetMonitorStore } from "../fake-api/routes/monitors.ts";
import { dsnFor, USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi({ afterReset: (a) => resetMonitorStore(a.state) });
const REMOTE = "http://sentry.invalid:9000";
/** Every plain-http request goes to the fake, acting as the proxy. */
const viaFake = () => ({ HTTP_PROXY: api.url, http_proxy: api.url, NO_PROXY: "", no_proxy: "" });

/** A git project under a fresh home whose `.sentryclirc` holds `rc`. */
function repo(rc: string): { home: string; proj: string } {
  const home = tempDir("tracker-home-");
  const proj = join(home, "proj");
  mkdirSync(join(proj, ".git"), { recursive: true });
  writeFileSync(join(proj, ".sentryclirc"), rc);
  return { home, proj };
}

describe("a plain-http service URL", () => {
  test("set in TRACKER_URL: used, with one warning", async () => {
    const r = await runCli(["org", "list", "--json"], {
      token: USER_TOKEN,
      env: { TRACKER_URL: REMOTE, ...viaFake() },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe(
      "Warning: TRACKER_URL is plain http: your token is sent unencrypted to sentry.invalid:9000.\n",
    );
    expect(api.requests.length).toBeGreaterThan(0);
    expect(api.requests.every((q) => q.headers.host === "sentry.invalid:9000")).toBe(true);
  });

  test("auth login --url http://…: used, with one warning", async () => {
    const r = await runCli(["auth", "login", "--url", REMOTE, "--token", USER_TOKEN], {
      env: { TRACKER_URL: undefined, ...viaFake() },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe(
      `Warning: --url is plain http: your token is sent unencrypted to sentry.invalid:9000.\nLogging in to ${REMOTE} (from --url).\n`,
    );
    expect(api.requestsTo("/api/0/auth/", "GET").map((q) => q.headers.host)).toEqual(["sentry.invalid:9000"]);
  });

  test("named only by a .sentryclirc: its token is not sent (exit 20) unless TRACKER_ALLOW_HTTP=1", async () => {
    const s = repo(`[auth]\ntoken=${USER_TOKEN}\n[defaults]\nurl=${REMOTE}\n`);
    const env = { HOME: s.home, TRACKER_URL: undefined, ...viaFake() };
    const r = await runCli(["org", "list"], { cwd: s.proj, env });
    expect(r.exitCode).toBe(20);
    expect(r.stderr).toBe(
      `Error: The url in .sentryclirc is plain http (${REMOTE}): its token would cross the network unencrypted, so it was not sent.\n\nSuggestion: Use an https url, set TRACKER_URL=${REMOTE} yourself, or set TRACKER_ALLOW_HTTP=1 to allow plain http from files.\n`,
    );
    expect(api.requests).toEqual([]);
    const allowed = await runCli(["org", "list", "--json"], {
      cwd: s.proj,
      env: { ...env, TRACKER_ALLOW_HTTP: "1" },
    });
    expect(allowed.exitCode).toBe(0);
    expect(allowed.stderr).toBe(
      "Warning: The url in .sentryclirc is plain http (allowed by TRACKER_ALLOW_HTTP): your token is sent unencrypted to sentry.invalid:9000.\n",
    );
    expect(api.requests.length).toBeGreaterThan(0);
    expect(api.requests.every((q) => q.headers.authorization === `Bearer ${USER_TOKEN}`)).toBe(true);
  });
});

describe("a plain-http DSN", () => {
  /** The DSN of initech/tps-reports with its host swapped for one that never resolves. */
  function remoteDsn(): string {
    const p = api.state.projects.find((x) => x.id === "300021");
    if (!p) throw new Error("seed changed");
    const dsn = new URL(dsnFor(api.state, p));
    return `http://${dsn.username}@sentry.invalid:9000${dsn.pathname}`;
  }

  test("set in TRACKER_DSN: the event is sent, with one warning (subprocess: the proxy is the process's)", async () => {
    const r = await runCli(["event", "send", "-m", "hi"], {
      subprocess: true,
      env: { TRACKER_URL: undefined, TRACKER_DSN: remoteDsn(), ...viaFake() },
    });
    expect(r.stderr).toBe(
      "Warning: The DSN is plain http (allowed by TRACKER_DSN): events are sent unencrypted to sentry.invalid:9000.\n" +
        "Sent to sentry.invalid:9000 (project 300021); DSN from TRACKER_DSN.\n",
    );
    expect(r.exitCode).toBe(0);
    const got = monitorStore(api.state).envelopes;
    expect(got.length).toBe(1);
    expect(api.requestsTo("/api/300021/envelope/", "POST").map((q) => q.headers.host)).toEqual([
      "sentry.invalid:9000",
    ]);
  });

  test("found in the project's files: refused (exit 20) unless TRACKER_ALLOW_HTTP=1; nothing leaves", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, ".env"), `SENTRY_DSN=${remoteDsn()}\n`);
    const env = { TRACKER_URL: undefined, ...viaFake() };
    const r = await runCli(["event", "send", "-m", "hi"], { cwd, env });
    expect(r.exitCode).toBe(20);
    expect(r.stderr).toStartWith(
      "Error: Refusing to send to sentry.invalid:9000 over plain http: the DSN was found in this project's files, not set by you.\n",
    );
    expect(api.requests).toEqual([]);
    // In source code (bun itself would load a .env into the child's environment).
    const src = tempDir();
    writeFileSync(join(src, "app.js"), `Sentry.init({ dsn: "${remoteDsn()}" });\n`);
    const code = await runCli(["event", "send", "-m", "hi"], { cwd: src, subprocess: true, env });
    expect(code.exitCode).toBe(20);
    expect(api.requests).toEqual([]);
    const allowed = await runCli(["event", "send", "-m", "hi"], {
      cwd: src,
      subprocess: true,
      env: { ...env, TRACKER_ALLOW_HTTP: "1" },
    });
    expect(allowed.stderr).toBe(
      "Warning: The DSN is plain http (allowed by TRACKER_ALLOW_HTTP): events are sent unencrypted to sentry.invalid:9000.\n" +
        "Sent to sentry.invalid:9000 (project 300021); DSN from app.js:1.\n",
    );
    expect(allowed.exitCode).toBe(0);
    expect(monitorStore(api.state).envelopes.length).toBe(1);
  });
});
