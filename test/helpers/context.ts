/** A TrackerContext for command and library tests: string buffers, fixed clock, temp config dir, real fetch. */
import { buildContext } from "../../src/build-context.ts";
import type { ContextOverrides, TrackerContext } from "../../src/context.ts";
import type { LogLevel } from "../../src/lib/env.ts";
import type { TextSink } from "../../src/lib/log.ts";
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

/**
 * Builds a context whose streams are string buffers and whose clock is fixed (default
 * 2026-01-15T12:00:00Z), with the same factory main.ts uses (src/build-context.ts): the same
 * sanitising, secret masking and URL rules as a real run.
 */
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
  const configDir = opts.configDir ?? tempDir("tracker-ctx-");
  const homeDir = opts.homeDir ?? tempDir("tracker-home-");
  const tty = opts.tty ?? false;
  // Paging is off unless a test sets TRACKER_PAGER itself; colour is off unless a test asks.
  const env: Record<string, string | undefined> = {
    TRACKER_PAGER: "",
    NO_COLOR: "1",
    HOME: homeDir,
    TRACKER_CONFIG_DIR: configDir,
    ...opts.env,
  };
  if (opts.api && env.TRACKER_URL === undefined) env.TRACKER_URL = opts.api.url;
  let clock = opts.now ?? Date.parse("2026-01-15T12:00:00Z");
  const sleeps: number[] = [];
  const over: ContextOverrides = {
    env,
    stdout,
    stderr,
    cwd: opts.cwd ?? tempDir("tracker-cwd-"),
    isStdoutTTY: tty,
    isStderrTTY: tty,
    isStdinTTY: tty,
    terminalWidth: opts.terminalWidth ?? 100,
    terminalHeight: 40,
    readStdin: async () => opts.stdinText ?? "",
    now: () => clock,
    sleep: async (ms) => {
      sleeps.push(ms);
      if (opts.realSleep) await Bun.sleep(ms);
      clock += ms;
    },
  };
  const ctx = buildContext(opts.logLevel ?? "info", over, [], undefined, undefined);
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
