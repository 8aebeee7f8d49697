/** A pasted URL of another stored login's server is looked up on that server, never by number on the current one. */
import { afterAll, beforeAll, expect, test } from "bun:test";
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

async function twoLogins(): Promise<string> {
  const configDir = tempDir();
  for (const [url, token] of [
    [api.url, USER_TOKEN],
    [other.url, OAUTH_TOKEN],
  ] as const) {
    const r = await runCli(["auth", "login", "--url", url, "--token", token], {
      configDir,
      env: { TRACKER_URL: undefined },
    });
    expect(r.exitCode).toBe(0);
  }
  api.reset();
  other.reset();
  return configDir;
}

test("an issue URL of the other login's server is shown and changed there", async () => {
  const configDir = await twoLogins();
  const issueUrl = `${api.url}/organizations/acme/issues/4158/`;
  // The run points at the other server; the URL names this one.
  const view = await runCli(["issue", "view", issueUrl, "--json"], {
    configDir,
    env: { TRACKER_URL: other.url },
  });
  expect(view.exitCode).toBe(0);
  expect(JSON.parse(view.stdout).shortId).toBe("WEB-4Y");
  expect(view.stderr).toContain(`Using the login for ${api.url} (the service of the URL).`);
  const resolve = await runCli(["issue", "resolve", issueUrl, "--dry-run"], {
    configDir,
    env: { TRACKER_URL: other.url },
  });
  expect(resolve.exitCode).toBe(0);
  expect(other.requests).toEqual([]);
  expect(api.requests.length).toBeGreaterThan(0);
  // Its token went with it: the other server's token never reached this one.
  for (const r of api.requests) expect(r.headers.authorization).toBe(`Bearer ${USER_TOKEN}`);
});

test("with an environment token of another service: exit 20, nothing sent; a server without a login is read as before", async () => {
  const configDir = await twoLogins();
  const envToken = await runCli(["issue", "view", `${api.url}/organizations/acme/issues/4158/`], {
    configDir,
    env: { TRACKER_URL: other.url, TRACKER_AUTH_TOKEN: OAUTH_TOKEN },
  });
  expect(envToken.exitCode).toBe(20);
  expect(envToken.stderr).toContain("but the environment token is for");
  expect(api.requests).toEqual([]);
  expect(other.requests).toEqual([]);
  const mirror = await runCli(
    ["issue", "view", "https://tracker.invalid/organizations/acme/issues/4158/", "--json"],
    {
      configDir,
      env: { TRACKER_URL: other.url },
    },
  );
  expect(mirror.exitCode).toBe(0);
  expect(api.requests).toEqual([]);
  expect(other.requests.length).toBeGreaterThan(0);
});
