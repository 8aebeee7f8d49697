/** Every exit-code category reached through the real CLI, with exact stderr and an empty stdout. */
import { describe, expect, test } from "bun:test";
import { join, resolve } from "node:path";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { type CliResult, runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const ROOT = resolve(import.meta.dir, "../..");

const api = useFakeApi();

function expectFailure(r: CliResult, code: number, stderr: string | RegExp): void {
  expect({ exitCode: r.exitCode, stdout: r.stdout }).toEqual({ exitCode: code, stdout: "" });
  if (typeof stderr === "string") expect(r.stderr).toBe(stderr);
  else expect(r.stderr).toMatch(stderr);
}

describe("2 usage (found by the parser)", () => {
  test("unknown command, with a suggestion", async () => {
    expectFailure(
      await runCli(["nosuch"]),
      2,
      "Error: Unknown command 'nosuch'.\nRun 'tracker --help' to see every command.\n",
    );
    expectFailure(
      await runCli(["org", "lst"]),
      2,
      /^Error: Unknown command 'lst'\. Did you mean `list`\?\nRun 'tracker --help' to see every command\.\n$/,
    );
  });

  test("unknown flag and missing positional", async () => {
    const [flag, positional] = await Promise.all([
      runCli(["org", "list", "--nope"]),
      runCli(["trace", "view"]),
    ]);
    expectFailure(
      flag,
      2,
      /^Error: Unknown flag --nope for tracker org list\.\nRun the command with --help for usage\.\n$/,
    );
    expectFailure(
      positional,
      2,
      "Error: Expected argument for trace_id\nRun the command with --help for usage.\n",
    );
  });
});

describe("21 validation (bad values)", () => {
  test("number flags reject abc before any command code runs", async () => {
    expectFailure(
      await runCli(["issue", "list", "--limit", "abc"]),
      21,
      "Error: --limit must be a whole number from 1 to 1000, got 'abc'.\n",
    );
  });

  test("bad --log-level and TRACKER_LOG_LEVEL name the allowed values", async () => {
    const [flag, env, missing] = await Promise.all([
      runCli(["--log-level", "loud", "org", "list"]),
      runCli(["org", "list"], { env: { TRACKER_LOG_LEVEL: "chatty" } }),
      runCli(["org", "list", "--log-level"]),
    ]);
    expectFailure(
      flag,
      21,
      "Error: Invalid log level 'loud' in --log-level. Allowed values: error, warn, info, debug, trace.\n",
    );
    expectFailure(
      env,
      21,
      "Error: Invalid log level 'chatty' in TRACKER_LOG_LEVEL. Allowed values: error, warn, info, debug, trace.\n",
    );
    expectFailure(
      missing,
      21,
      "Error: --log-level needs a value. Allowed values: error, warn, info, debug, trace.\n",
    );
    expect(api.requests).toEqual([]);
  });
});

describe("10-12 authentication", () => {
  test("no token: 10; rejected token: 12, and the token is not echoed", async () => {
    const [none, bad] = await Promise.all([
      runCli(["org", "list"], { api }),
      runCli(["org", "list"], { api, token: "sntryu_rejected_token_value" }),
    ]);
    expectFailure(
      none,
      10,
      "Error: Not authenticated\n\nRun `tracker auth login` to log in (in CI, set TRACKER_AUTH_TOKEN).\n",
    );
    expect(bad.exitCode).toBe(12);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toStartWith("Error: ");
    expect(bad.stderr).toContain("Invalid token");
    expect(bad.stderr).not.toContain("rejected_token_value");
  });
});

describe("20 configuration", () => {
  test("TRACKER_URL that is not http(s) or not a URL", async () => {
    const [ftp, junk] = await Promise.all([
      runCli(["org", "list"], { token: USER_TOKEN, env: { TRACKER_URL: "ftp://example.com" } }),
      runCli(["org", "list"], { token: USER_TOKEN, env: { TRACKER_URL: "not a url" } }),
    ]);
    expectFailure(
      ftp,
      20,
      "Error: TRACKER_URL must use http or https, got 'ftp:'\n\nSuggestion: Set TRACKER_URL to the address of your service, e.g. https://sentry.example.com\n",
    );
    expectFailure(
      junk,
      20,
      "Error: TRACKER_URL is not a valid URL: 'not a url'\n\nSuggestion: Set TRACKER_URL to the address of your service, e.g. https://sentry.example.com\n",
    );
  });
});

describe("22 missing context", () => {
  test("issue list with no org anywhere: 22 with an example and alternatives", async () => {
    const r = await runCli(["issue", "list"], { api, token: USER_TOKEN, cwd: tempDir("tracker-empty-cwd-") });
    expect(r.exitCode).toBe(22);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^Error: Organization( and project)? (is|are) required\.\n\n {2}tracker /);
  });
});

describe("30 API, 31 network", () => {
  test("an API error status: 30 with the API detail indented (403 adds the scope hint)", async () => {
    const fail = (status: number) =>
      api.inject({
        path: "/api/0/organizations/acme/",
        status,
        times: Number.POSITIVE_INFINITY,
        body: { detail: "Something specific went wrong" },
      });
    fail(409);
    expectFailure(
      await runCli(["org", "view", "acme"], { api, token: USER_TOKEN }),
      30,
      "Error: Request failed with status 409\n  Something specific went wrong\n",
    );
    api.reset();
    fail(403);
    expectFailure(
      await runCli(["org", "view", "acme"], { api, token: USER_TOKEN }),
      30,
      /^Error: Request failed with status 403\n {2}Something specific went wrong\n\nGET \/api\/0\/organizations\/acme\/ needs one of the scopes org:read, org:write, org:admin\. The token's scopes are not known here/,
    );
  });

  test("a server that does not speak TLS: 31 at once (TLS failures are not retried)", async () => {
    const r = await runCli(["org", "list"], {
      token: USER_TOKEN,
      env: { TRACKER_URL: `https://127.0.0.1:${new URL(api.url).port}` },
    });
    expect(r.exitCode).toBe(31);
    expect(r.stdout).toBe("");
    expect(r.stderr).toStartWith(`Error: TLS verification failed for 127.0.0.1:${new URL(api.url).port}`);
    expect(api.requests).toEqual([]);
  });

  test("a closed port: 31 after the bounded retries", async () => {
    const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const port = probe.port;
    probe.stop(true);
    expectFailure(
      await runCli(["org", "list"], { token: USER_TOKEN, env: { TRACKER_URL: `http://127.0.0.1:${port}` } }),
      31,
      `Error: Could not connect to 127.0.0.1:${port}: connection refused\n\nCheck your network, proxy settings (HTTPS_PROXY, NO_PROXY) and TRACKER_URL.\n`,
    );
  });
});

describe("1 unexpected", () => {
  const crash = (args: string[], env: Record<string, string> = {}) => {
    const proc = Bun.spawnSync([process.execPath, join(ROOT, "test/fixtures/crash-cli.ts"), ...args], {
      env: { ...process.env, TRACKER_CONFIG_DIR: tempDir(), ...env },
    });
    return { exitCode: proc.exitCode, stdout: proc.stdout.toString(), stderr: proc.stderr.toString() };
  };

  test("one line plus the debug pointer at the default level, no stack", () => {
    const r = crash(["crash"]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^Error: [^\n]+\nRun with --log-level debug for details\.\n$/);
  });

  test("the stack at --log-level debug, --verbose and TRACKER_LOG_LEVEL=trace", () => {
    for (const r of [
      crash(["crash", "--log-level", "debug"]),
      crash(["--verbose", "crash"]),
      crash(["crash"], { TRACKER_LOG_LEVEL: "trace" }),
    ]) {
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(/^Error: [^\n]+\nTypeError: [^\n]+\n\s+at /);
      expect(r.stderr).toContain("crash-cli.ts");
      expect(r.stderr).not.toContain("Run with --log-level debug");
    }
  });
});
