import { afterEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runInProcess, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

// Colour is decided once per run: only when stderr is a terminal and NO_COLOR is unset. These run
// the real app in-process with the terminal facts injected, which a child process cannot fake.
const api = useFakeApi();
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function run(
  argv: string[],
  tty: boolean,
  extraEnv: Record<string, string> = {},
  stderrTty: boolean = tty,
) {
  const configDir = tempDir("tracker-color-cfg-");
  const cwd = tempDir("tracker-color-cwd-");
  dirs.push(configDir, cwd);
  return runInProcess(argv, {
    env: {
      PATH: process.env.PATH,
      HOME: cwd,
      TRACKER_CONFIG_DIR: configDir,
      TRACKER_URL: api.url,
      TRACKER_AUTH_TOKEN: USER_TOKEN,
      ...extraEnv,
    },
    cwd,
    isStdoutTTY: tty,
    isStderrTTY: stderrTty,
    terminalWidth: 100,
  });
}

const ESC = "\x1b[";

describe("colour decisions", () => {
  test("a terminal without NO_COLOR gets styled hints on stderr", async () => {
    const r = await run(["issue", "list", "acme/web", "-n", "2"], true);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(ESC);
  });

  test("NO_COLOR turns colour off even on a terminal", async () => {
    const r = await run(["issue", "list", "acme/web", "-n", "2"], true, { NO_COLOR: "1" });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).not.toContain(ESC);
    expect(r.stdout).not.toContain(ESC);
  });

  test("stderr not a terminal: its tips are plain even when stdout is one", async () => {
    const r = await run(["issue", "list", "acme/web", "-n", "2"], true, {}, false);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain("Tip: tracker issue view");
    expect(r.stderr).not.toContain(ESC);
  });

  test("no terminal, no colour", async () => {
    const r = await run(["issue", "list", "acme/web", "-n", "2"], false);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).not.toContain(ESC);
    expect(r.stdout).not.toContain(ESC);
  });
});
