import { afterAll, beforeAll, expect, test } from "bun:test";
import { USER_TOKEN } from "../../fake-api/seed.ts";
import { startFakeApi, type FakeApi } from "../../fake-api/server.ts";
import { runCli } from "../../helpers/cli.ts";

// Runs against the compiled binary when TRACKER_TEST_BINARY is set (CI's smoke step), else the source.
let api: FakeApi;
beforeAll(async () => {
  api = await startFakeApi();
});
afterAll(() => api.stop());

test("--version prints the package version", async () => {
  const r = await runCli(["--version"], { subprocess: true });
  const pkg = (await Bun.file(`${import.meta.dir}/../../../package.json`).json()) as { version: string };
  expect(r).toEqual({ exitCode: 0, stdout: `${pkg.version}\n`, stderr: "" });
});

test("--help lists every command", async () => {
  const r = await runCli(["--help"], { subprocess: true });
  expect(r.exitCode).toBe(0);
  for (const cmd of ["auth", "issue", "trace", "org", "project", "defaults", "cli", "upgrade"]) {
    expect(r.stdout).toContain(`  ${cmd} `);
  }
});

test("unknown command and bad number fail on stderr with documented codes", async () => {
  const a = await runCli(["nosuch"], { subprocess: true });
  expect(a.exitCode).toBe(2);
  expect(a.stdout).toBe("");
  expect(a.stderr).toStartWith("Error: ");
  const b = await runCli(["issue", "list", "--limit", "abc"], { subprocess: true });
  expect(b.exitCode).toBe(21);
  expect(b.stdout).toBe("");
  expect(b.stderr).toStartWith("Error: --limit must be a whole number");
});

test("org list --json against the fake server", async () => {
  const r = await runCli(["org", "list", "--json"], { api, token: USER_TOKEN, subprocess: true });
  expect(r.exitCode).toBe(0);
  expect((JSON.parse(r.stdout) as unknown[]).length).toBe(3);
});

test("a development build has no hosted OAuth client id: the device flow asks for a token, sending nothing", async () => {
  const r = await runCli(["auth", "login"], {
    subprocess: true,
    env: { TRACKER_URL: undefined, TRACKER_CLIENT_ID: undefined },
  });
  expect(r.exitCode).toBe(20);
  expect(r.stdout).toBe("");
  expect(r.stderr).toStartWith(
    "Logging in to https://sentry.io (the hosted service; --url or TRACKER_URL names another).\nError: This build of tracker has no OAuth client ID for sentry.io (development builds do not)",
  );
  expect(r.stderr).toContain("tracker auth login --token");
});
