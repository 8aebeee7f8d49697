/**
 * The README's "Switching from sentry-cli" as written, through the compiled binary under
 * TRACKER_TEST_BINARY (else the source): `tracker cli setup --sentry-cli-link <dir>`, then
 * `sentry-cli --version` and a release created and finalized by sentry-cli's command line.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { mintOrgToken } from "../../fake-api/routes/auth.ts";
import { type FakeApi, startFakeApi } from "../../fake-api/server.ts";
import { runCli, tempDir } from "../../helpers/cli.ts";

let api: FakeApi;
beforeAll(async () => {
  api = await startFakeApi();
});
afterAll(() => api.stop());

/** Runs `<dir>/sentry-cli args…` with only the given environment (plus PATH and a config dir). */
async function sentryCli(dir: string, args: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawn([join(dir, "sentry-cli"), ...args], {
    cwd: tempDir(),
    env: { PATH: process.env.PATH ?? "", TRACKER_CONFIG_DIR: tempDir(), ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { exitCode, stdout, stderr };
}

test("cli setup --sentry-cli-link, then sentry-cli --version, help, releases new --finalize, deploys new", async () => {
  const dir = tempDir();
  const setup = await runCli(
    ["cli", "setup", "--sentry-cli-link", dir, "--no-modify-path", "--no-agent-skills"],
    {
      subprocess: true,
    },
  );
  expect(setup.exitCode).toBe(0);
  expect(setup.stdout).toContain(`sentry-cli: created ${join(dir, "sentry-cli")}`);
  expect(await sentryCli(dir, ["--version"])).toEqual({
    exitCode: 0,
    stdout: "sentry-cli 2.58.6\n",
    stderr: "",
  });
  expect((await sentryCli(dir, [])).stdout).toStartWith("SENTRY-CLI COMMAND LINES\n");
  const env = {
    SENTRY_URL: api.url,
    SENTRY_AUTH_TOKEN: mintOrgToken(api.state, "acme", ["org:ci"]),
    SENTRY_ORG: "acme",
    VERSION: "9.9.9",
  };
  const r = await sentryCli(dir, ["releases", "new", "-p", "web", "9.9.9", "--finalize"], env);
  expect(r.exitCode).toBe(0);
  const [post] = api.requestsTo("/api/0/organizations/acme/releases/", "POST");
  expect(JSON.parse(post?.body ?? "")).toMatchObject({
    version: "9.9.9",
    projects: ["web"],
    dateReleased: expect.any(String),
  });
  const d = await sentryCli(dir, ["releases", "deploys", "9.9.9", "new", "-e", "production"], env);
  expect(d.exitCode).toBe(0);
  const [deploy] = api.requestsTo("/api/0/organizations/acme/releases/9.9.9/deploys/", "POST");
  expect(JSON.parse(deploy?.body ?? "")).toEqual({ environment: "production" });
  expect(api.unmatched).toEqual([]);
});

test("tracker sentry-cli <args> is the same command line without a link", async () => {
  const r = await runCli(["sentry-cli", "-V"], { subprocess: true });
  expect(r).toEqual({ exitCode: 0, stdout: "sentry-cli 2.58.6\n", stderr: "" });
});
