/** Issue 24: tokens and service URLs from SENTRY_* variables and Sentry configuration files. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OAUTH_TOKEN, USER_TOKEN } from "../fake-api/seed.ts";
import { type FakeApi, startFakeApi } from "../fake-api/server.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
let other: FakeApi;
beforeAll(async () => {
  other = await startFakeApi();
});
afterAll(() => other.stop());

/** No proxy answers here: a request to any non-loopback host (sentry.io) fails as a network error. */
const DEAD_PROXY = {
  HTTPS_PROXY: "http://127.0.0.1:9",
  HTTP_PROXY: "http://127.0.0.1:9",
  NO_PROXY: "127.0.0.1",
};

/** A home directory with a git project `proj`, and `.sentryclirc` texts: `home` and/or `proj`. */
function setup(rc: { home?: string; proj?: string } = {}): { home: string; proj: string } {
  const home = tempDir("tracker-home-");
  const proj = join(home, "proj");
  mkdirSync(join(proj, ".git"), { recursive: true });
  if (rc.home) writeFileSync(join(home, ".sentryclirc"), rc.home);
  if (rc.proj) writeFileSync(join(proj, ".sentryclirc"), rc.proj);
  return { home, proj };
}

const bearers = (a: FakeApi) => [...new Set(a.requests.map((r) => r.headers.authorization))];

describe("SENTRY_AUTH_TOKEN and SENTRY_URL", () => {
  test("SENTRY_AUTH_TOKEN is used below TRACKER_AUTH_TOKEN/TRACKER_TOKEN, named by auth status, never stored", async () => {
    const configDir = tempDir();
    const r = await runCli(["org", "list", "--json"], {
      api,
      configDir,
      env: { SENTRY_AUTH_TOKEN: USER_TOKEN },
    });
    expect(r.exitCode).toBe(0);
    expect(bearers(api)).toEqual([`Bearer ${USER_TOKEN}`]);
    const status = await runCli(["auth", "status"], {
      api,
      configDir,
      env: { SENTRY_AUTH_TOKEN: USER_TOKEN },
    });
    expect(status.stdout).toContain("Source:        SENTRY_AUTH_TOKEN environment variable\n");
    const json = await runCli(["auth", "status", "--json"], {
      api,
      configDir,
      env: { SENTRY_AUTH_TOKEN: USER_TOKEN },
    });
    expect(JSON.parse(json.stdout).source).toBe("SENTRY_AUTH_TOKEN");
    api.reset();
    const beaten = await runCli(["org", "list", "--json"], {
      api,
      configDir,
      env: { SENTRY_AUTH_TOKEN: "sntryu_wrong", TRACKER_TOKEN: USER_TOKEN },
    });
    expect(beaten.exitCode).toBe(0);
    expect(bearers(api)).toEqual([`Bearer ${USER_TOKEN}`]);
    api.reset();
    const none = await runCli(["auth", "status", "--json"], { api, configDir });
    expect(JSON.parse(none.stdout)).toMatchObject({ authenticated: false, logins: [] });
  });

  test("SENTRY_URL names the service below TRACKER_URL", async () => {
    const env = { TRACKER_URL: undefined, SENTRY_URL: other.url, SENTRY_AUTH_TOKEN: USER_TOKEN };
    const r = await runCli(["org", "list", "--json"], { env });
    expect(r.exitCode).toBe(0);
    expect(other.requests.length).toBeGreaterThan(0);
    other.reset();
    const beaten = await runCli(["org", "list", "--json"], { env: { ...env, TRACKER_URL: api.url } });
    expect(beaten.exitCode).toBe(0);
    expect(api.requests.length).toBeGreaterThan(0);
    expect(other.requests).toEqual([]);
  });
});

describe("a token in a configuration file", () => {
  test("is sent to its file's URL, which becomes the service URL; auth status names the file", async () => {
    const s = setup({ proj: `[auth]\ntoken = ${USER_TOKEN}\n[defaults]\nurl = ${api.url}/\norg = acme\n` });
    const env = { HOME: s.home, TRACKER_URL: undefined };
    const r = await runCli(["project", "list", "--json"], { cwd: s.proj, env });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("Using organization acme (from .sentryclirc)\n");
    expect(bearers(api)).toEqual([`Bearer ${USER_TOKEN}`]);
    const status = await runCli(["auth", "status"], { cwd: s.proj, env });
    expect(status.stdout).toContain(`Source:        .sentryclirc (${join(s.proj, ".sentryclirc")})\n`);
    const json = JSON.parse((await runCli(["auth", "status", "--json"], { cwd: s.proj, env })).stdout);
    expect(json).toMatchObject({
      authenticated: true,
      source: ".sentryclirc",
      sourcePath: join(s.proj, ".sentryclirc"),
    });
  });

  test("is not sent to another service URL, and the hint says why", async () => {
    const s = setup({ home: `[auth]\ntoken=${USER_TOKEN}\n[defaults]\nurl=${other.url}\n` });
    // TRACKER_URL names the first fake; the file's token is for the second one.
    const r = await runCli(["org", "list"], { api, cwd: s.proj, env: { HOME: s.home } });
    expect(r.exitCode).toBe(10);
    expect(r.stderr).toContain(
      `The token in ~/.sentryclirc is for ${other.url}, not ${api.url}: it was not sent.`,
    );
    expect(api.requests).toEqual([]);
    expect(other.requests).toEqual([]);
  });

  test("without a url it belongs to sentry.io: never sent to a self-hosted URL (nothing leaves for sentry.io either)", async () => {
    const s = setup({ proj: `[auth]\ntoken=${USER_TOKEN}\n` });
    const r = await runCli(["org", "list"], { api, cwd: s.proj, env: { HOME: s.home, ...DEAD_PROXY } });
    expect(r.exitCode).toBe(10);
    expect(r.stderr).toContain(
      `The token in .sentryclirc is for https://sentry.io, not ${api.url}: it was not sent.`,
    );
    expect(api.requests).toEqual([]);
  });

  test("environment tokens and stored logins rank above it; an env token never follows a file's URL", async () => {
    const s = setup({ proj: `[auth]\ntoken=sntryu_fromfile\n[defaults]\nurl=${other.url}\n` });
    const configDir = tempDir();
    const login = await runCli(["auth", "login", "--token", OAUTH_TOKEN], {
      api,
      configDir,
      cwd: s.proj,
      env: { HOME: s.home },
    });
    expect(login.exitCode).toBe(0);
    api.reset();
    // TRACKER_URL unset: the only stored login's URL wins over the file's URL.
    const stored = await runCli(["org", "list", "--json"], {
      configDir,
      cwd: s.proj,
      env: { HOME: s.home, TRACKER_URL: undefined },
    });
    expect(stored.exitCode).toBe(0);
    expect(bearers(api)).toEqual([`Bearer ${OAUTH_TOKEN}`]);
    expect(other.requests).toEqual([]);
    api.reset();
    // An environment token goes to the hosted default, not to the file's URL (proxy dead: nothing left).
    const envTok = await runCli(["org", "list"], {
      cwd: s.proj,
      env: { HOME: s.home, TRACKER_URL: undefined, SENTRY_AUTH_TOKEN: USER_TOKEN, ...DEAD_PROXY },
    });
    expect(envTok.exitCode).not.toBe(0);
    expect(other.requests).toEqual([]);
  });

  test("sentry.properties: auth.token with defaults.url (escaped)", async () => {
    const s = setup();
    const url = api.url.replace("://", "\\://");
    writeFileSync(join(s.proj, "sentry.properties"), `auth.token=${USER_TOKEN}\ndefaults.url=${url}\n`);
    const r = await runCli(["org", "list", "--json"], {
      cwd: s.proj,
      env: { HOME: s.home, TRACKER_URL: undefined },
    });
    expect(r.exitCode).toBe(0);
    expect(bearers(api)).toEqual([`Bearer ${USER_TOKEN}`]);
    const status = await runCli(["auth", "status"], {
      cwd: s.proj,
      env: { HOME: s.home, TRACKER_URL: undefined },
    });
    expect(status.stdout).toContain(
      `Source:        sentry.properties (${join(s.proj, "sentry.properties")})\n`,
    );
  });
});
