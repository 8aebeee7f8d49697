/**
 * Runs the real CLI: in-process through main() with injected streams and environment (fast; the
 * default), or as a child process (the source entry, or the compiled binary when
 * TRACKER_TEST_BINARY is set, or when a test asks for `subprocess`).
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { ContextOverrides } from "../../src/context.ts";
import { main } from "../../src/main.ts";
import type { FakeApi } from "../fake-api/server.ts";

const ROOT = resolve(import.meta.dir, "../..");

/** Result of one CLI run. */
export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Options of runCli. */
export interface RunOptions {
  api?: FakeApi;
  /** Config dir to use (default: a fresh temp dir). */
  configDir?: string;
  env?: Record<string, string | undefined>;
  cwd?: string;
  stdin?: string;
  /** Use this token as TRACKER_AUTH_TOKEN. */
  token?: string;
  timeoutMs?: number;
  /** Run as a child process even when the source is tested (signals, exit paths, real stdio). */
  subprocess?: boolean;
  /** Streams that are terminals (in-process only, even under TRACKER_TEST_BINARY: pipes are no terminals). */
  terminal?: { stdout?: boolean; stderr?: boolean; stdin?: boolean };
}

/** The command that starts the CLI: the compiled binary if TRACKER_TEST_BINARY is set, else bun on src/bin.ts. */
export function cliCommand(): string[] {
  const bin = process.env.TRACKER_TEST_BINARY;
  // --no-env-file: a test's working directory may hold a .env, which the built binary never loads.
  return bin ? [resolve(ROOT, bin)] : [process.execPath, "--no-env-file", join(ROOT, "src/bin.ts")];
}

const created: string[] = [];

/** A fresh empty temp dir, removed after the test run (test/preload.ts). */
export function tempDir(prefix = "tracker-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/**
 * Removes every dir tempDir() made (called once after all tests). A test may leave a directory
 * read-only (0500, 0555); as root rm ignores that, as an ordinary user it cannot empty it, so
 * every directory of the tree gets its owner's rwx back first.
 */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      makeRemovable(dir);
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

/** Gives every directory under `root` (not following links) its owner's rwx, best effort. */
function makeRemovable(root: string): void {
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop() as string;
    try {
      chmodSync(dir, 0o700);
      for (const e of readdirSync(dir, { withFileTypes: true }))
        if (e.isDirectory() && !e.isSymbolicLink()) stack.push(join(dir, e.name));
    } catch {
      // Not ours or already gone: rm reports what is left.
    }
  }
}

/** Runs the CLI and captures exit code, stdout and stderr. */
export async function runCli(args: readonly string[], opts: RunOptions = {}): Promise<CliResult> {
  const env = cliEnv(opts);
  const cwd = opts.cwd ?? tempDir("tracker-cwd-");
  if (opts.subprocess || (process.env.TRACKER_TEST_BINARY && !opts.terminal)) {
    return runProcess(args, env, cwd, opts);
  }
  return runInProcess(args, {
    env,
    cwd,
    isStdoutTTY: opts.terminal?.stdout ?? false,
    isStderrTTY: opts.terminal?.stderr ?? false,
    isStdinTTY: opts.terminal?.stdin ?? false,
    terminalWidth: Number(env.COLUMNS) > 0 ? Number(env.COLUMNS) : 80,
    terminalHeight: Number(env.LINES) > 0 ? Number(env.LINES) : 24,
    readStdin: async () => opts.stdin ?? "",
  });
}

/**
 * The real app in-process with captured streams: not a terminal unless `over` says so, no stdin.
 * Every in-process test run goes through here (e2e helpers, colour and terminal-safety tests, fuzz).
 */
export async function runInProcess(args: readonly string[], over: ContextOverrides): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const exitCode = await main(args, undefined, {
    isStdoutTTY: false,
    isStderrTTY: false,
    isStdinTTY: false,
    terminalWidth: 80,
    terminalHeight: 24,
    readStdin: async () => "",
    ...over,
    stdout: {
      write: (t) => {
        stdout += t;
      },
    },
    stderr: {
      write: (t) => {
        stderr += t;
      },
    },
  });
  return { exitCode, stdout, stderr };
}

/** The environment of a run: this process's, minus TRACKER_* and NO_COLOR, with paging off, plus the options'. */
function cliEnv(opts: RunOptions): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith("TRACKER_")) env[k] = v;
  }
  delete env.NO_COLOR;
  env.TRACKER_CONFIG_DIR = opts.configDir ?? tempDir("tracker-cfg-");
  // No pager unless a test asks for one: a long list on a simulated terminal must not start less.
  env.TRACKER_PAGER = "";
  if (opts.api) env.TRACKER_URL = opts.api.url;
  if (opts.token) env.TRACKER_AUTH_TOKEN = opts.token;
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

async function runProcess(
  args: readonly string[],
  env: Record<string, string>,
  cwd: string,
  opts: RunOptions,
): Promise<CliResult> {
  const proc = Bun.spawn([...cliCommand(), ...args], {
    cwd,
    env,
    stdin: opts.stdin !== undefined ? new TextEncoder().encode(opts.stdin) : "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const timer = setTimeout(() => proc.kill(), opts.timeoutMs ?? 20_000);
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  clearTimeout(timer);
  return { exitCode, stdout, stderr };
}

/** Spawns the CLI behind a prefix (umask, user namespace) with a clean TRACKER_* environment. */
export async function runWrapped(
  prefix: readonly string[],
  args: readonly string[],
  env: Record<string, string | undefined>,
  opts: { cwd?: string; unset?: readonly string[] } = {},
): Promise<CliResult> {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith("TRACKER_") && !opts.unset?.includes(k)) clean[k] = v;
  for (const [k, v] of Object.entries(env)) if (v !== undefined) clean[k] = v;
  const cwd = opts.cwd ?? tempDir();
  // The unprivileged user must be able to enter the working directory.
  if (prefix.length > 0 && opts.cwd === undefined) chmodSync(cwd, 0o755);
  const proc = Bun.spawn([...prefix, ...cliCommand(), ...args], {
    cwd,
    env: clean,
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

/**
 * Root passes every permission check, so as root the CLI runs as the unprivileged user `nobody`
 * (setpriv), where mode bits apply as they do for an ordinary user. A user namespace is not
 * enough: in some sandboxes (this project's CI among them) `unshare -U` still writes to `/`.
 */
export const READ_ONLY_PREFIX: readonly string[] =
  process.getuid?.() === 0 ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : [];

/**
 * A run whose stdout and stderr are terminals (100 columns, no colour, no pager) against a fake
 * API, in-process, with a fixed clock when given (relative times stay stable).
 */
export function runOnTerminal(
  args: readonly string[],
  opts: { api: FakeApi; token: string; configDir?: string; now?: number },
): Promise<CliResult> {
  const now = opts.now;
  return runInProcess(args, {
    env: {
      TRACKER_CONFIG_DIR: opts.configDir ?? tempDir(),
      TRACKER_URL: opts.api.url,
      TRACKER_AUTH_TOKEN: opts.token,
      TRACKER_PAGER: "",
      NO_COLOR: "1",
      PATH: process.env.PATH ?? "",
    },
    cwd: tempDir(),
    isStdoutTTY: true,
    isStderrTTY: true,
    terminalWidth: 100,
    ...(now === undefined ? {} : { now: () => now }),
  });
}
