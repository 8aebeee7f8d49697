/** Runs the real CLI as a child process (source entry, or the compiled binary when TRACKER_TEST_BINARY is set). */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
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
}

/** The command that starts the CLI: the compiled binary if TRACKER_TEST_BINARY is set, else bun on src/bin.ts. */
export function cliCommand(): string[] {
  const bin = process.env.TRACKER_TEST_BINARY;
  return bin ? [resolve(ROOT, bin)] : [process.execPath, join(ROOT, "src/bin.ts")];
}

/** A fresh empty temp dir. */
export function tempDir(prefix = "tracker-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Runs the CLI and captures exit code, stdout and stderr. */
export async function runCli(args: readonly string[], opts: RunOptions = {}): Promise<CliResult> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith("TRACKER_")) env[k] = v;
  }
  delete env.NO_COLOR;
  env.TRACKER_CONFIG_DIR = opts.configDir ?? tempDir("tracker-cfg-");
  if (opts.api) env.TRACKER_URL = opts.api.url;
  if (opts.token) env.TRACKER_AUTH_TOKEN = opts.token;
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  const proc = Bun.spawn([...cliCommand(), ...args], {
    cwd: opts.cwd ?? tempDir("tracker-cwd-"),
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
