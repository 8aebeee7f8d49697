/** A fake TrackerContext for command and library tests: string buffers, fixed clock, temp config dir, real fetch. */
import type { TrackerContext } from "../../src/context.ts";
import { createStore } from "../../src/lib/db/index.ts";
import { type LogLevel, readSettings } from "../../src/lib/env.ts";
import { createLogger, type TextSink } from "../../src/lib/log.ts";
import { REGIONS, TOKENS } from "../../src/lib/wiring.ts";
import type { FakeApi } from "../fake-api/server.ts";
import { tempDir } from "./cli.ts";

/** A test context plus access to what it printed. */
export interface TestContext {
  ctx: TrackerContext;
  stdout(): string;
  stderr(): string;
  /** Milliseconds passed to ctx.sleep, in order (nothing really sleeps). */
  sleeps: number[];
  /** Moves the fake clock. */
  advance(ms: number): void;
}

/** Options of createTestContext. */
export interface TestContextOptions {
  api?: FakeApi;
  env?: Record<string, string | undefined>;
  configDir?: string;
  cwd?: string;
  homeDir?: string;
  now?: number;
  logLevel?: LogLevel;
  stdinText?: string;
  tty?: boolean;
  terminalWidth?: number;
  /** Let ctx.sleep really wait (default: record and advance the fake clock). */
  realSleep?: boolean;
}

/** Builds a context whose streams are string buffers and whose clock is fixed (default 2026-01-15T12:00:00Z). */
export function createTestContext(opts: TestContextOptions = {}): TestContext {
  let out = "";
  let err = "";
  const stdout: TextSink = {
    write: (t) => {
      out += t;
    },
  };
  const stderr: TextSink = {
    write: (t) => {
      err += t;
    },
  };
  // Paging is off unless a test sets TRACKER_PAGER itself.
  const env: Record<string, string | undefined> = { TRACKER_PAGER: "", ...opts.env };
  if (opts.api && env.TRACKER_URL === undefined) env.TRACKER_URL = opts.api.url;
  const settings = readSettings(env);
  const configDir = opts.configDir ?? tempDir("tracker-ctx-");
  const level = opts.logLevel ?? "info";
  const log = createLogger(level, stderr);
  let clock = opts.now ?? Date.parse("2026-01-15T12:00:00Z");
  const sleeps: number[] = [];
  const tty = opts.tty ?? false;
  const ctx: TrackerContext = {
    process: { stdout, stderr, env },
    stdout,
    stderr,
    readStdin: async () => opts.stdinText ?? "",
    env,
    settings,
    cwd: opts.cwd ?? tempDir("tracker-cwd-"),
    homeDir: opts.homeDir ?? tempDir("tracker-home-"),
    configDir,
    isStdoutTTY: tty,
    isStderrTTY: tty,
    isStdinTTY: tty,
    color: false,
    terminalWidth: opts.terminalWidth ?? 100,
    terminalHeight: 40,
    logLevel: level,
    log,
    now: () => clock,
    sleep: async (ms) => {
      sleeps.push(ms);
      if (opts.realSleep) await Bun.sleep(ms);
      clock += ms;
    },
    fetch: globalThis.fetch,
    store: createStore(
      configDir,
      () => !settings.noAutoRepair,
      () => log,
    ),
    tokens: TOKENS,
    regions: REGIONS,
    said: new Set(),
    inFlight: new Map(),
    execPath: process.execPath,
  };
  return {
    ctx,
    stdout: () => out,
    stderr: () => err,
    sleeps,
    advance: (ms) => {
      clock += ms;
    },
  };
}
