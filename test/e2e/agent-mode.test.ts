/**
 * On a real pseudo-terminal (util-linux `script`): Ctrl-C at a prompt is exit 130 with nothing
 * changed, Ctrl-C while the pager runs waits for the pager, and agent/CI mode never pages,
 * spins or prompts. TRACKER_FORCE_TTY gives terminal output without a terminal.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { cliCommand, runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/** Runs tracker on a pseudo-terminal; `keys` are typed after `delayMs`. Output is the terminal's. */
async function onTerminal(
  args: string[],
  env: Record<string, string>,
  keys = "",
  delayMs = 1500,
): Promise<{ exitCode: number; screen: string }> {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith("TRACKER_") && !["CI", "CLAUDECODE", "AGENT"].includes(k))
      clean[k] = v;
  // A pseudo-terminal starts 0 columns wide: give it a real size, as a terminal window has.
  const cmd = `stty cols 100 rows 10 2>/dev/null; exec ${[...cliCommand(), ...args].map(quote).join(" ")}`;
  const proc = Bun.spawn(["script", "-qec", cmd, "/dev/null"], {
    cwd: tempDir(),
    env: { ...clean, TERM: "xterm", COLUMNS: "100", LINES: "10", ...env },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  if (keys) {
    await Bun.sleep(delayMs);
    proc.stdin.write(keys);
  }
  proc.stdin.end();
  const [screen, exitCode] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  return { exitCode, screen };
}

/** A pager that records that it ran (and what it saw), ignoring Ctrl-C like less does. */
function fakePager(
  dir: string,
  slowMs = 0,
): { env: Record<string, string>; ran: () => boolean; finished: string } {
  const marker = join(dir, "pager-ran");
  const finished = join(dir, "pager-finished");
  const script = join(dir, "pager.sh");
  writeFileSync(
    script,
    `#!/bin/sh\ntrap '' INT\ncat > ${quote(marker)}\nsleep ${slowMs / 1000}\necho done > ${quote(finished)}\n`,
  );
  chmodSync(script, 0o755);
  return { env: { TRACKER_PAGER: script }, ran: () => existsSync(marker), finished };
}

const needsScript = !Bun.which("script");

describe.skipIf(needsScript)("on a terminal", () => {
  test("Ctrl-C at the token prompt exits 130 and stores nothing", async () => {
    const dir = tempDir();
    const r = await onTerminal(
      ["auth", "login", "--token"],
      { TRACKER_CONFIG_DIR: dir, TRACKER_URL: api.url },
      "\x03",
    );
    expect(r.exitCode).toBe(130);
    expect(r.screen).toContain("Login cancelled; stored credentials were not changed.");
    const status = await runCli(["auth", "status", "--json"], {
      configDir: dir,
      env: { TRACKER_URL: api.url },
    });
    expect(JSON.parse(status.stdout).authenticated).toBe(false);
  });

  test("Ctrl-C while the pager shows a list: tracker waits for the pager, then ends", async () => {
    const dir = tempDir();
    const pager = fakePager(dir, 1500);
    const r = await onTerminal(
      ["issue", "list", "acme/web", "-n", "30"],
      { TRACKER_CONFIG_DIR: dir, TRACKER_URL: api.url, TRACKER_AUTH_TOKEN: USER_TOKEN, ...pager.env },
      "\x03",
      800,
    );
    expect(pager.ran()).toBe(true);
    // The pager finished before tracker ended: tracker did not leave it running.
    expect(existsSync(pager.finished)).toBe(true);
    expect(r.exitCode).toBe(0);
  });

  for (const variable of ["CLAUDECODE", "CI", "TRACKER_PROMPT_DISABLED"]) {
    test(`agent/CI mode (${variable}): no pager, no spinner, no prompt`, async () => {
      const dir = tempDir();
      const pager = fakePager(dir);
      const env = { TRACKER_CONFIG_DIR: dir, TRACKER_URL: api.url, [variable]: "1" };
      const list = await onTerminal(["issue", "list", "acme/web", "-n", "30"], {
        ...env,
        TRACKER_AUTH_TOKEN: USER_TOKEN,
        ...pager.env,
      });
      expect(list.exitCode).toBe(0);
      expect(pager.ran()).toBe(false);
      expect(list.screen).toContain("WEB-1");
      const login = await onTerminal(["auth", "login", "--token"], env);
      expect(login.exitCode).toBe(21);
      expect(login.screen).toContain("No token given.");
      expect(login.screen).not.toContain("Paste your token");
    });
  }

  test("control: without agent mode the same list goes through the pager", async () => {
    const dir = tempDir();
    const pager = fakePager(dir);
    const r = await onTerminal(["issue", "list", "acme/web", "-n", "30"], {
      TRACKER_CONFIG_DIR: dir,
      TRACKER_URL: api.url,
      TRACKER_AUTH_TOKEN: USER_TOKEN,
      ...pager.env,
    });
    expect(r.exitCode).toBe(0);
    expect(pager.ran()).toBe(true);
    expect(readFileSync(join(dir, "pager-ran"), "utf8")).toContain("WEB-1");
  });
});

test("TRACKER_FORCE_TTY=1 prints terminal output though stdout is a pipe", async () => {
  const env = { TRACKER_FORCE_TTY: "1", TRACKER_PAGER: "", NO_COLOR: "1" };
  const r = await runCli(["issue", "list", "acme/web", "-n", "3"], {
    api,
    token: USER_TOKEN,
    env,
    subprocess: true,
  });
  expect(r.exitCode).toBe(0);
  // The terminal table has a header row; piped output is bare TSV rows.
  expect(r.stdout).toMatch(/^\s*\n?.*ID\s+LEVEL\s+TITLE/m);
  expect(r.stdout).not.toContain("\t");
});

describe.skipIf(needsScript)("a bulk change on a terminal", () => {
  test("Ctrl-C at the confirmation exits 130 and changes nothing; agent mode needs --yes", async () => {
    const env = { TRACKER_CONFIG_DIR: tempDir(), TRACKER_URL: api.url, TRACKER_AUTH_TOKEN: USER_TOKEN };
    const args = ["issue", "resolve", "acme/web", "-q", "is:unresolved", "-n", "3"];
    const r = await onTerminal(args, env, "\x03", 2000);
    expect(r.exitCode).toBe(130);
    expect(r.screen).toContain("Resolve the first 3 of the");
    // The destructive question defaults to No (the filled circle).
    expect(r.screen).toMatch(/○.*Yes.*●.* No/);
    const agent = await onTerminal(args, { ...env, CLAUDECODE: "1" });
    expect(agent.exitCode).toBe(21);
    expect(agent.screen).toContain("add --yes");
    expect(api.requests.filter((q) => q.method === "PUT")).toEqual([]);
  });
});

describe.skipIf(needsScript)("issue merge on a terminal", () => {
  test("the preview names the issues; the question defaults to No; Ctrl-C exits 130; nothing is merged", async () => {
    const env = { TRACKER_CONFIG_DIR: tempDir(), TRACKER_URL: api.url, TRACKER_AUTH_TOKEN: USER_TOKEN };
    const args = ["issue", "merge", "acme/WEB-51", "--into", "acme/WEB-4Y"];
    const declined = await onTerminal(args, env, "\r", 2000);
    expect(declined.exitCode).toBe(0);
    expect(declined.screen).toContain("Merge into WEB-4Y");
    expect(declined.screen).toContain("  WEB-51  ");
    expect(declined.screen).toMatch(/○.*Yes.*●.* No/);
    expect(declined.screen).toContain("Nothing was merged.");
    const cancelled = await onTerminal(args, env, "\x03", 2000);
    expect(cancelled.exitCode).toBe(130);
    expect(api.requests.filter((q) => q.method === "PUT")).toEqual([]);
  });
});

describe.skipIf(needsScript)("spinners on a terminal", () => {
  test("issue explain spins on a terminal, never in agent mode", async () => {
    const env = { TRACKER_CONFIG_DIR: tempDir(), TRACKER_URL: api.url, TRACKER_AUTH_TOKEN: USER_TOKEN };
    const frames = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
    const person = await onTerminal(["issue", "explain", "acme/WEB-4Y", "--force"], env);
    expect(person.exitCode).toBe(0);
    expect(frames.test(person.screen)).toBe(true);
    const agent = await onTerminal(["issue", "explain", "acme/WEB-4Y", "--force"], {
      ...env,
      CLAUDECODE: "1",
    });
    expect(agent.exitCode).toBe(0);
    expect(frames.test(agent.screen)).toBe(false);
    expect(agent.screen).toContain("Root cause");
  });
});
