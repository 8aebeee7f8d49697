/**
 * Issues 30, 31 §3 and 32: where a token goes. A workspace file's URL never decides where a login
 * is stored, nor where an environment token goes; an org token's claim names its own service over
 * TRACKER_URL/SENTRY_URL; the device flow's verification page stays on the service's host.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mintOrgToken } from "../fake-api/routes/auth.ts";
import { configureOAuth, TEST_CLIENT_ID } from "../fake-api/routes/oauth.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { type FakeApi, startFakeApi } from "../fake-api/server.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi({ afterReset: (a) => configureOAuth(a.state) });
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

/** A git project under a fresh home whose `.sentryclirc` holds `rc`. */
function repo(rc: string): { home: string; proj: string } {
  const home = tempDir("tracker-home-");
  const proj = join(home, "proj");
  mkdirSync(join(proj, ".git"), { recursive: true });
  writeFileSync(join(proj, ".sentryclirc"), rc);
  return { home, proj };
}

describe("auth login: a workspace file's url never decides where a credential is stored", () => {
  test("--token with only a .sentryclirc url: checked against sentry.io, never the file's server; says so", async () => {
    const s = repo(`[defaults]\nurl=${other.url}\n`);
    const configDir = tempDir();
    const r = await runCli(["auth", "login", "--token", USER_TOKEN], {
      configDir,
      cwd: s.proj,
      env: { HOME: s.home, TRACKER_URL: undefined, ...DEAD_PROXY },
    });
    expect(r.exitCode).toBe(31);
    expect(r.stderr).toStartWith(
      `Logging in to https://sentry.io (the hosted service; --url or TRACKER_URL names another); the url in .sentryclirc is not used to log in (to log in there: tracker auth login --url ${other.url}).\n`,
    );
    expect(other.requests).toEqual([]);
    expect(r.stderr).not.toContain(USER_TOKEN);
  });

  test("--url, then SENTRY_URL, name the service; the file's url is not consulted", async () => {
    const s = repo(`[defaults]\nurl=${other.url}\n`);
    const env = { HOME: s.home, TRACKER_URL: undefined };
    const flag = await runCli(["auth", "login", "--url", api.url, "--token", USER_TOKEN], {
      cwd: s.proj,
      env,
    });
    expect(flag.exitCode).toBe(0);
    expect(flag.stderr).toBe(`Logging in to ${api.url} (from --url).\n`);
    expect(flag.stdout).toBe(`Logged in to ${api.url} as Jane Doe <jane@example.com>.\n`);
    const byVar = await runCli(["auth", "login", "--token", USER_TOKEN], {
      cwd: s.proj,
      env: { ...env, SENTRY_URL: api.url },
    });
    expect(byVar.exitCode).toBe(0);
    expect(byVar.stderr).toBe(`Logging in to ${api.url} (from SENTRY_URL).\n`);
    expect(other.requests).toEqual([]);
  });

  test("the device flow goes to SENTRY_URL, not the file's server; without a URL variable to sentry.io", async () => {
    configureOAuth(api.state, { interval: 0 });
    const s = repo(`[defaults]\nurl=${other.url}\n`);
    const env = { HOME: s.home, TRACKER_URL: undefined, TRACKER_CLIENT_ID: TEST_CLIENT_ID };
    const ok = await runCli(["auth", "login"], { cwd: s.proj, env: { ...env, SENTRY_URL: api.url } });
    expect(ok.exitCode).toBe(0);
    expect(ok.stderr).toStartWith(`Logging in to ${api.url} (from SENTRY_URL).\n`);
    expect(api.requestsTo("/oauth/device/code/", "POST").length).toBe(1);
    const hosted = await runCli(["auth", "login"], { cwd: s.proj, env: { ...env, ...DEAD_PROXY } });
    expect(hosted.exitCode).toBe(31);
    expect(hosted.stderr).toStartWith("Logging in to https://sentry.io (the hosted service;");
    expect(other.requests).toEqual([]);
  });

  test("a pasted org token is checked and stored for the service its claim names; TRACKER_URL is ignored and named", async () => {
    const token = mintOrgToken(api.state, "acme");
    const configDir = tempDir();
    const r = await runCli(["auth", "login", "--token", token], {
      configDir,
      env: { TRACKER_URL: other.url },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe(
      `Logging in to ${api.url}, the service the org token was issued by; TRACKER_URL (${other.url}) is ignored.\n`,
    );
    expect(r.stdout).toBe(`Logged in to ${api.url} with an org auth token for acme.\n`);
    expect(other.requests).toEqual([]);
  });
});

describe("the device flow's verification page", () => {
  test("on another host than the service: refused before it is shown, nothing polled or stored", async () => {
    configureOAuth(api.state, { interval: 0, verificationUri: "https://sentry.invalid/oauth/device/" });
    const configDir = tempDir();
    const r = await runCli(["auth", "login"], { api, configDir, env: { TRACKER_CLIENT_ID: TEST_CLIENT_ID } });
    expect(r.exitCode).toBe(51);
    expect(r.stderr).toContain(
      `Error: The server sent a verification page on another host (sentry.invalid) than the service ${api.url}; it is not shown and nothing was approved.`,
    );
    expect(r.stderr).not.toContain("enter the code");
    expect(api.requestsTo("/oauth/token/", "POST")).toEqual([]);
    const status = await runCli(["auth", "status", "--json"], { api, configDir });
    expect(JSON.parse(status.stdout).authenticated).toBe(false);
  });
});

describe("an environment org token goes to its own service", () => {
  test("TRACKER_URL or SENTRY_URL naming another server is ignored, in one line; the claim's server is asked", async () => {
    const token = mintOrgToken(api.state, "acme");
    for (const name of ["TRACKER_URL", "SENTRY_URL"]) {
      api.reset();
      const r = await runCli(["org", "list", "--json"], {
        env: { TRACKER_URL: undefined, [name]: other.url, SENTRY_AUTH_TOKEN: token },
      });
      expect(r.exitCode).toBe(0);
      expect(r.stderr).toBe(
        `Warning: Using ${api.url}, the service the org token in SENTRY_AUTH_TOKEN was issued by; ${name}=${other.url} is ignored.\n`,
      );
      expect(JSON.parse(r.stdout).map((o: { slug: string }) => o.slug)).toEqual(["acme"]);
      expect(api.requests.length).toBeGreaterThan(0);
      expect(other.requests).toEqual([]);
    }
  });

  test("a URL variable naming the claim's own server: no note", async () => {
    const token = mintOrgToken(api.state, "acme");
    const r = await runCli(["org", "list", "--json"], { api, token });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
  });
});

describe("an environment token and a URL only in a workspace file (issue 31 §3)", () => {
  test("exit 20 naming both sources and the fix; nothing is sent anywhere", async () => {
    for (const [file, text] of [
      [".sentryclirc", `[defaults]\nurl=${other.url}\n`],
      ["sentry.properties", `defaults.url=${other.url.replace("://", "\\://")}\n`],
    ] as const) {
      const home = tempDir("tracker-home-");
      const proj = join(home, "proj");
      mkdirSync(join(proj, ".git"), { recursive: true });
      writeFileSync(join(proj, file), text);
      const r = await runCli(["org", "list"], {
        cwd: proj,
        env: { HOME: home, TRACKER_URL: undefined, SENTRY_AUTH_TOKEN: USER_TOKEN, ...DEAD_PROXY },
      });
      expect(r.exitCode).toBe(20);
      expect(r.stderr).toBe(
        `Error: SENTRY_AUTH_TOKEN comes from the environment, but the service URL ${other.url} only from ${file}: a configuration file does not choose where an environment token goes, so it was not sent (to https://sentry.io or anywhere else).\n\nSuggestion: Set TRACKER_URL or SENTRY_URL beside the token (export TRACKER_URL=${other.url}), or put the token in ${file} and unset SENTRY_AUTH_TOKEN.\n`,
      );
      expect(other.requests).toEqual([]);
    }
  });

  test("the fix works: TRACKER_URL beside the token, or the token in the same file", async () => {
    const s = repo(`[defaults]\nurl=${api.url}\n`);
    const withVar = await runCli(["org", "list", "--json"], {
      cwd: s.proj,
      env: { HOME: s.home, TRACKER_URL: api.url, TRACKER_AUTH_TOKEN: USER_TOKEN },
    });
    expect(withVar.exitCode).toBe(0);
    writeFileSync(join(s.proj, ".sentryclirc"), `[auth]\ntoken=${USER_TOKEN}\n[defaults]\nurl=${api.url}\n`);
    const inFile = await runCli(["org", "list", "--json"], {
      cwd: s.proj,
      env: { HOME: s.home, TRACKER_URL: undefined },
    });
    expect(inFile.exitCode).toBe(0);
    expect(api.requests.every((q) => q.headers.authorization === `Bearer ${USER_TOKEN}`)).toBe(true);
  });

  test("an org token's claim wins over the file's url: no error, its own server is asked", async () => {
    const s = repo(`[defaults]\nurl=${other.url}\n`);
    const token = mintOrgToken(api.state, "acme");
    const r = await runCli(["org", "list", "--json"], {
      cwd: s.proj,
      env: { HOME: s.home, TRACKER_URL: undefined, TRACKER_AUTH_TOKEN: token },
    });
    expect(r.exitCode).toBe(0);
    expect(api.requests.length).toBeGreaterThan(0);
    expect(other.requests).toEqual([]);
  });
});

describe("a file token whose file has an invalid url (issue 32)", () => {
  test("is not sent to sentry.io (or anywhere): not authenticated, and the hint says why", async () => {
    const s = repo(`[auth]\ntoken=${USER_TOKEN}\n[defaults]\nurl=not a url\n`);
    const r = await runCli(["org", "list"], {
      cwd: s.proj,
      env: { HOME: s.home, TRACKER_URL: undefined, ...DEAD_PROXY },
    });
    expect(r.exitCode).toBe(10);
    expect(r.stderr).toContain(
      "The token in .sentryclirc names no valid url, not https://sentry.io: it was not sent.",
    );
    expect(r.stderr).not.toContain(USER_TOKEN);
  });
});
