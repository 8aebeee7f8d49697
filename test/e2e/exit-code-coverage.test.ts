/**
 * Every code of the README's exit-code table is produced by a real run of the CLI (the in-process
 * entry point, main()), so the table, SKILL.md and what tracker does cannot drift apart. Three
 * codes need a process of their own and are produced elsewhere: 1 by a crashing command
 * (exit-codes.test.ts), 130 and 143 by signals against the binary (binary/signals.test.ts).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { writeCredentials } from "../../src/lib/db/auth.ts";
import { EXIT_CODE_TABLE } from "../../src/lib/exit-codes.ts";
import { setAutofixScenario } from "../fake-api/routes/autofix.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { createTestContext } from "../helpers/context.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const ROOT = resolve(import.meta.dir, "../..");
const api = useFakeApi();

/** A config dir holding a stored login, written through the product's own database module. */
function storedLogin(baseUrl: string, expiresAt: number | null): string {
  const t = createTestContext({ api });
  writeCredentials(t.ctx, {
    token: "sntryu_".padEnd(71, "a"),
    refresh_token: "unknown-refresh-token",
    expires_at: expiresAt,
    issued_at: Date.now() - 3_600_000,
    kind: "oauth",
    base_url: baseUrl,
    user_json: null,
  });
  t.ctx.store.close();
  return t.ctx.configDir;
}

function refusedPort(): number {
  const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  const port = s.port ?? 0;
  s.stop(true);
  return port;
}

let nextIssue = 4300;
function analysisIssue(scenario: Parameters<typeof setAutofixScenario>[2]): string {
  const id = String(nextIssue++);
  setAutofixScenario(api.state, id, scenario);
  return `acme/${id}`;
}

type Case = () => Promise<{ exitCode: number; stdout: string; stderr: string }>;
const run = (args: string[], opts: Parameters<typeof runCli>[1] = {}) =>
  runCli(args, { api, token: USER_TOKEN, ...opts });

const CASES: Record<number, Case> = {
  0: () => run(["org", "list"]),
  2: () => run(["org", "list", "--nosuch"]),
  10: () => run(["org", "list"], { token: undefined }),
  11: () =>
    runCli(["org", "list"], {
      api,
      configDir: storedLogin(api.url, Date.now() - 60_000),
      env: { TRACKER_CLIENT_ID: "some-client" },
    }),
  12: () => run(["org", "list"], { token: "not a token" }),
  13: () => runCli(["org", "list"], { api, configDir: storedLogin("https://sentry.example.com", null) }),
  20: () => run(["org", "list"], { env: { TRACKER_URL: "ftp://x" } }),
  21: () => run(["issue", "list", "acme/web", "-n", "0"]),
  22: () => run(["issue", "list"], { cwd: tempDir("tracker-empty-cwd-") }),
  23: () => run(["org", "view", "nope"]),
  30: () => run(["query", "acme/web", "--dataset", "spans", "-F", "bogus()"]),
  31: () => run(["org", "list"], { env: { TRACKER_URL: `http://127.0.0.1:${refusedPort()}` } }),
  40: () => run(["issue", "explain", analysisIssue({ deny: "not_enabled" })]),
  41: () => run(["issue", "explain", analysisIssue({ deny: "no_budget" })]),
  42: () => run(["issue", "explain", analysisIssue({ deny: "ai_disabled" })]),
  43: () => run(["issue", "explain", analysisIssue({ outcome: "error", pollsPerStage: 1 })]),
  // A plain-http release server off loopback is refused before any request; an unreachable one is 31.
  50: () => run(["upgrade", "--check"], { env: { TRACKER_RELEASE_URL: "http://releases.example.com" } }),
  51: () => {
    api.inject({ path: "/oauth/device/code/", status: 401, body: { error: "invalid_client" } });
    // --log-level warn: without the line that says which service the login goes to.
    return run(["auth", "login", "--log-level", "warn"], {
      token: undefined,
      env: { TRACKER_CLIENT_ID: "some-client" },
    });
  },
};

/** Codes produced by tests that need a process of their own, and the assertion each one makes. */
const ELSEWHERE: Record<number, [file: string, assertion: string]> = {
  1: ["test/e2e/exit-codes.test.ts", "expect(r.exitCode).toBe(1);"],
  130: ["test/e2e/binary/signals.test.ts", "code: 130"],
  143: ["test/e2e/binary/signals.test.ts", "code: 143"],
};

describe("every exit code in the table is produced", () => {
  test("the cases here and the ones elsewhere cover the table exactly", () => {
    const covered = [...Object.keys(CASES), ...Object.keys(ELSEWHERE)].map(Number).sort((a, b) => a - b);
    expect(covered).toEqual(EXIT_CODE_TABLE.map((row) => row.code));
    for (const [file, assertion] of Object.values(ELSEWHERE)) {
      expect(readFileSync(join(ROOT, file), "utf8")).toContain(assertion);
    }
  });

  for (const [code, produce] of Object.entries(CASES)) {
    const row = EXIT_CODE_TABLE.find((r) => r.code === Number(code));
    test(`${code} ${row?.name ?? "?"}`, async () => {
      const r = await produce();
      expect(r.exitCode).toBe(Number(code));
      if (Number(code) === 0) expect(r.stdout).not.toBe("");
      else {
        expect(r.stdout).toBe("");
        expect(r.stderr).toStartWith("Error: ");
      }
    }, 20_000);
  }
});
