/** Log levels through the real CLI: flags, TRACKER_LOG_LEVEL, trace HTTP lines, and tokens never printed. */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { OAUTH_TOKEN, USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

/** The first row of the piped org list: tab-separated, no header. */
const TABLE_HEAD = /^acme\t[^\n]+\n/;

describe("trace", () => {
  test("every request and response is logged with method, URL, status, duration and redacted headers", async () => {
    const r = await runCli(["org", "list", "--log-level", "trace"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(TABLE_HEAD);
    const regions = `${api.url}/api/0/users/me/regions/`;
    // Header names are compared case-insensitively: HTTP treats them so and the client may normalise them.
    const block = r.stderr.slice(r.stderr.indexOf(`[trace] → GET ${regions}\n`));
    expect(block.split("\n").slice(0, 4).join("\n").toLowerCase()).toBe(
      `[trace] → GET ${regions}\n    user-agent: tracker/0.1.0 (${process.platform}-${process.arch}) bun/${Bun.version}\n    accept: application/json\n    authorization: [REDACTED]`.toLowerCase(),
    );
    expect(r.stderr).toMatch(
      /\[trace\] ← 200 GET http:\/\/127\.0\.0\.1:\d+\/api\/0\/users\/me\/regions\/ \(\d+ ms\)\n {4}content-/,
    );
    const requestLines = r.stderr.match(/^\[trace\] → GET .*$/gm) ?? [];
    const responseLines = r.stderr.match(/^\[trace\] ← \d{3} GET .* \(\d+ ms\)$/gm) ?? [];
    expect(requestLines).toHaveLength(api.requests.length);
    expect(responseLines).toHaveLength(api.requests.length);
    expect(api.requests.length).toBe(3);
    expect(r.stderr + r.stdout).not.toContain(USER_TOKEN);
    expect(r.stderr + r.stdout).not.toContain(USER_TOKEN.slice(7));
  });

  test("TRACKER_LOG_LEVEL=trace does the same; an OAuth token (no prefix) is never printed either", async () => {
    const r = await runCli(["org", "list"], { api, token: OAUTH_TOKEN, env: { TRACKER_LOG_LEVEL: "trace" } });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/^ {4}authorization: \[REDACTED\]$/im);
    expect(r.stderr).toContain("[trace] → GET ");
    expect(r.stderr + r.stdout).not.toContain(OAUTH_TOKEN);
    expect(r.stderr + r.stdout).not.toContain(OAUTH_TOKEN.slice(0, 20));
  });

  test("the flag beats the environment", async () => {
    const r = await runCli(["org", "list", "--log-level", "info"], {
      api,
      token: USER_TOKEN,
      env: { TRACKER_LOG_LEVEL: "trace" },
    });
    expect(r).toMatchObject({ exitCode: 0, stderr: "" });
  });
});

describe("levels", () => {
  test("info (default) prints nothing on success; debug/--verbose add [debug] lines but no [trace]", async () => {
    const [plain, verbose, debug] = await Promise.all([
      runCli(["org", "list"], { api, token: USER_TOKEN }),
      runCli(["--verbose", "org", "list"], { api, token: USER_TOKEN }),
      runCli(["org", "list"], { api, token: USER_TOKEN, env: { TRACKER_LOG_LEVEL: "debug" } }),
    ]);
    expect(plain.stderr).toBe("");
    for (const r of [plain, verbose, debug]) {
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe(plain.stdout);
    }
    for (const r of [verbose, debug]) {
      expect(r.stderr).not.toContain("[trace]");
      expect(
        r.stderr
          .split("\n")
          .filter(Boolean)
          .every((l) => l.startsWith("[debug] ") || l.startsWith(" ")),
      ).toBe(true);
    }
  });

  test("warnings show at info and warn, not at error", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "tracker.db"), "not a database ".repeat(40));
    const warning = "Warning: Local state unavailable, continuing without cache: The local database at";
    const [info, warn, error] = await Promise.all(
      ["info", "warn", "error"].map((level) =>
        runCli(["org", "list", `--log-level=${level}`], { api, token: USER_TOKEN, configDir: dir }),
      ),
    );
    expect(info?.stderr).toStartWith(warning);
    expect(warn?.stderr).toStartWith(warning);
    expect(error?.stderr).toBe("");
    expect([info?.exitCode, warn?.exitCode, error?.exitCode]).toEqual([0, 0, 0]);
  });

  test("errors are printed at every level, even --log-level error", async () => {
    const r = await runCli(["org", "list", "--log-level", "error"], { api });
    expect(r.exitCode).toBe(10);
    expect(r.stderr).toStartWith("Error: Not authenticated\n");
  });
});
