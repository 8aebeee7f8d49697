import { describe, expect, test } from "bun:test";
import { addIssue, ISSUES_NOW_MS } from "../fake-api/routes/issues.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, runInProcess, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";
import { sanitizeTerminal } from "../../src/lib/sanitize.ts";

// Server text that tries to retitle the terminal, clear it, ring the bell, move the cursor back
// over a line (CR), and use an 8-bit CSI (C1 0x9b).
const HOSTILE = "boom\x1b]0;pwned\x07\x1b[2J\rFORGED\x9b31m\x08\x7f end";
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

const api = useFakeApi();
const run = (args: string[]) => runCli(args, { api, token: USER_TOKEN });

describe("the terminal sanitiser", () => {
  test("renders every control character visibly, keeps newlines and tabs", () => {
    expect(sanitizeTerminal(HOSTILE)).toBe("boom\\e]0;pwned\\x07\\e[2J\\x0dFORGED\\x9b31m\\x08\\x7f end");
    expect(sanitizeTerminal("a\tb\nc")).toBe("a\tb\nc");
  });

  test("on a colour terminal plain SGR colour codes pass; other sequences do not", () => {
    expect(sanitizeTerminal("\x1b[2mdim\x1b[22m", true)).toBe("\x1b[2mdim\x1b[22m");
    expect(sanitizeTerminal("\x1b[2mdim\x1b[22m", false)).toBe("\\e[2mdim\\e[22m");
    expect(sanitizeTerminal("\x1b[2J\x1b]0;t\x07", true)).toBe("\\e[2J\\e]0;t\\x07");
  });
});

describe("server text in every human renderer", () => {
  const hostileIssue = () =>
    addIssue(api.state, "acme", "web", {
      title: `TypeError: ${HOSTILE}`,
      culprit: `fn(${HOSTILE})`,
      lastSeen: ISSUES_NOW_MS,
      metadata: { type: "TypeError", value: HOSTILE, filename: "app.js", function: "fn" },
    });

  test("issue list and issue view: visible escapes, no raw control characters", async () => {
    const issue = hostileIssue();
    const list = await run(["issue", "list", "acme/web", "-n", "3"]);
    expect(list.exitCode).toBe(0);
    expect(list.stdout).toContain("\\e]0;pwned\\x07");
    const view = await run(["issue", "view", `acme/${issue.shortId}`]);
    expect(view.exitCode).toBe(0);
    expect(view.stdout).toContain(`TypeError: boom\\e]0;pwned\\x07\\e[2J\\x0dFORGED\\x9b31m\\x08\\x7f end`);
    for (const r of [list, view]) {
      expect(RAW_CONTROL.test(r.stdout)).toBe(false);
      expect(RAW_CONTROL.test(r.stderr)).toBe(false);
    }
  });

  test("--json stays exact: the title parses back to the server's text", async () => {
    const issue = hostileIssue();
    const r = await run(["issue", "view", `acme/${issue.shortId}`, "--json"]);
    expect(JSON.parse(r.stdout).title).toBe(`TypeError: ${HOSTILE}`);
    expect(RAW_CONTROL.test(r.stdout)).toBe(false);
  });

  test("an API error's detail on stderr", async () => {
    api.inject({
      host: "us",
      path: "/api/0/organizations/acme/",
      status: 403,
      body: { detail: `Denied ${HOSTILE}` },
    });
    const r = await run(["org", "view", "acme"]);
    expect(r.exitCode).toBe(30);
    expect(r.stderr).toContain("Denied boom\\e]0;pwned\\x07");
    expect(RAW_CONTROL.test(r.stderr)).toBe(false);
  });

  test("on a colour terminal tracker's own styling survives, the server's sequences do not", async () => {
    hostileIssue();
    const dir = tempDir("tracker-tty-");
    const {
      exitCode: code,
      stdout: out,
      stderr: err,
    } = await runInProcess(["issue", "list", "acme/web", "-n", "2"], {
      env: {
        PATH: process.env.PATH,
        HOME: dir,
        TRACKER_CONFIG_DIR: dir,
        TRACKER_URL: api.url,
        TRACKER_AUTH_TOKEN: USER_TOKEN,
      },
      cwd: dir,
      isStdoutTTY: true,
      isStderrTTY: true,
      terminalWidth: 200,
    });
    expect(code).toBe(0);
    expect(err).toContain("\x1b[2m");
    expect(out).not.toContain("\x1b]");
    expect(out).not.toContain("\x07");
    expect(out).not.toContain("\r");
  });
});
