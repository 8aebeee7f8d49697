import { describe, expect, test } from "bun:test";
import { addIssue, ISSUES_NOW_MS } from "../fake-api/routes/issues.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, runInProcess, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";
import { sanitizeTerminal, sanitizingSink } from "../../src/lib/sanitize.ts";
import { paint } from "../../src/lib/style.ts";

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

  test("only tracker's own colour codes pass, on a colour terminal; an SGR code in server text never does", () => {
    expect(sanitizeTerminal(paint("dim", "2", "22"), true)).toBe("\x1b[2mdim\x1b[22m");
    expect(sanitizeTerminal(paint("dim", "2", "22"), false)).toBe("dim");
    expect(sanitizeTerminal("\x1b[2mdim\x1b[22m", true)).toBe("\\e[2mdim\\e[22m");
    expect(sanitizeTerminal("title \x1b[8mhidden", true)).toBe("title \\e[8mhidden");
    expect(sanitizeTerminal("\x1b[2J\x1b]0;t\x07", true)).toBe("\\e[2J\\e]0;t\\x07");
    // A guessed mark (any private-use text before the code) is still server text.
    expect(sanitizeTerminal("\ue000\ue001\ue002\x1b[8mx", true)).toBe("\ue000\ue001\ue002\\e[8mx");
  });

  test("bidi overrides, zero-width characters, line separators and the BOM are shown visibly", () => {
    expect(sanitizeTerminal("abc\u202edcba\u202c")).toBe("abc\\u202edcba\\u202c");
    expect(sanitizeTerminal("a\u200bb\u200dc\u2066d\u2069")).toBe("a\\u200bb\\u200dc\\u2066d\\u2069");
    expect(sanitizeTerminal("one\u2028two\u2029three\ufeff")).toBe("one\\u2028two\\u2029three\\ufeff");
    expect(sanitizeTerminal("naïve café — ok ✓")).toBe("naïve café — ok ✓");
  });

  test("a write that coloured anything ends with a reset", () => {
    const out: string[] = [];
    const sink = sanitizingSink({ write: (t) => out.push(t) }, true);
    sink.write(`${paint("x", "31", "39")}\n`);
    sink.write("plain\n");
    expect(out).toEqual(["\x1b[31mx\x1b[39m\n\x1b[0m", "plain\n"]);
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

  test("on a colour terminal: tracker's colours pass, a title's SGR and bidi codes do not", async () => {
    const issue = addIssue(api.state, "acme", "web", {
      title: "Shown \x1b[8mhidden\x1b[0m and \u202eesrever",
      level: "fatal",
      lastSeen: ISSUES_NOW_MS,
    });
    const terminal = { stdout: true, stderr: true };
    const list = await runCli(["issue", "list", "acme/web", "-n", "3"], {
      api,
      token: USER_TOKEN,
      terminal,
      env: { PAGER: "cat" },
    });
    expect(list.exitCode).toBe(0);
    // The level colour of tracker's own table is there …
    expect(list.stdout).toContain("\x1b[1;31m");
    // … the title's codes are shown, never sent.
    const view = await runCli(["issue", "view", `acme/${issue.shortId}`], {
      api,
      token: USER_TOKEN,
      terminal,
    });
    for (const r of [list, view]) {
      expect(r.stdout).not.toContain("\x1b[8m");
      expect(r.stdout).not.toContain("\u202e");
    }
    expect(view.stdout).toContain("Shown \\e[8mhidden\\e[0m and \\u202eesrever");
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

describe("one line per field", () => {
  test("a user name with line breaks cannot forge rows of auth status", async () => {
    const user = api.state.users[0] as { name: string };
    const saved = user.name;
    user.name = "Eve\nToken:         sntryu_forged (user auth token)\r\nUser:          admin";
    try {
      const r = await run(["auth", "status"]);
      expect(r.exitCode).toBe(0);
      const lines = r.stdout.split("\n");
      expect(lines.filter((l) => l.startsWith("Token:"))).toHaveLength(1);
      expect(lines.filter((l) => l.startsWith("User:"))).toHaveLength(1);
      expect(r.stdout).toContain("Eve ⏎ Token:");
    } finally {
      user.name = saved;
    }
  });
});

describe("the run's own token is never printed, whatever the server echoes", () => {
  test("in a title (human and --json), an API error (--json) and tracker api -i", async () => {
    const issue = addIssue(api.state, "acme", "web", {
      title: `Leak ${USER_TOKEN} here`,
      lastSeen: ISSUES_NOW_MS,
    });
    const human = await run(["issue", "view", `acme/${issue.shortId}`]);
    const json = await run(["issue", "view", `acme/${issue.shortId}`, "--json"]);
    expect(JSON.parse(json.stdout).title).toBe("Leak [REDACTED] here");
    api.inject({
      path: "/api/0/organizations/acme/issues/",
      status: 400,
      body: { detail: `bad token ${USER_TOKEN}` },
    });
    const error = await run(["issue", "list", "acme/web", "--json"]);
    expect(error.exitCode).toBe(30);
    api.inject({
      path: "/api/0/organizations/acme/",
      status: 200,
      body: { echoed: USER_TOKEN },
      headers: { "X-Echo": USER_TOKEN },
      // The organization's region is looked up first: both answers echo the token.
      times: 2,
    });
    const raw = await run(["api", "-i", "/organizations/acme/"]);
    for (const r of [human, json, error, raw]) {
      expect(r.stdout).not.toContain(USER_TOKEN);
      expect(r.stderr).not.toContain(USER_TOKEN);
    }
    expect(raw.stdout).toContain("[REDACTED]");
    expect(error.stderr).toContain("[REDACTED]");
  });
});
