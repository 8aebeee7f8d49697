import { homedir } from "node:os";
import type { RouteMap } from "@stricli/core";
import { run } from "@stricli/core";
import { app, runtime } from "./app.ts";
import type { TrackerContext } from "./context.ts";
import { createStore } from "./lib/db/index.ts";
import { type LogLevel, parseLogLevel, readSettings } from "./lib/env.ts";
import { CliError, EXIT, exitCodeFor, formatError } from "./lib/errors.ts";
import { createLogger, type TextSink } from "./lib/log.ts";
import { resolveConfigDir } from "./lib/paths.ts";

/** Global flags pulled out of argv, plus the arguments left for Stricli. */
export interface PreparedArgs {
  args: string[];
  json: boolean;
  verbose: boolean;
  logLevel: string | undefined;
  help: boolean;
}

const GLOBAL_BOOL = new Set(["--json", "--verbose", "--no-json", "--no-verbose"]);

/**
 * Moves global flags (`--json`, `--verbose`, `--log-level <l>`) from anywhere before `--` to the end,
 * because Stricli reads flags only at the leaf command. Route-map targets (help) get none.
 */
export function prepareArgs(argv: readonly string[], root: RouteMap<TrackerContext>): PreparedArgs {
  const rest: string[] = [];
  const globals: string[] = [];
  let json = false;
  let verbose = false;
  let logLevel: string | undefined;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === "--") {
      rest.push(...argv.slice(i));
      break;
    }
    if (GLOBAL_BOOL.has(a)) {
      globals.push(a);
      if (a === "--json") json = true;
      if (a === "--no-json") json = false;
      if (a === "--verbose") verbose = true;
      if (a === "--no-verbose") verbose = false;
      continue;
    }
    if (a === "--log-level" || a === "--logLevel") {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith("-")) {
        logLevel = "";
      } else {
        logLevel = value;
        i++;
      }
      continue;
    }
    if (a.startsWith("--log-level=") || a.startsWith("--logLevel=")) {
      logLevel = a.slice(a.indexOf("=") + 1);
      continue;
    }
    if (a === "--help" || a === "-h" || a === "--helpAll" || a === "--help-all" || a === "-H") help = true;
    rest.push(a);
  }
  let target: RouteMap<TrackerContext> | unknown = root;
  for (const word of rest) {
    if (word.startsWith("-")) break;
    const next = (target as RouteMap<TrackerContext>).getRoutingTargetForInput?.(word);
    if (!next) break;
    target = next;
    if (!("getRoutingTargetForInput" in (next as object))) break;
  }
  const isCommand = target !== root && !("getRoutingTargetForInput" in (target as object));
  const args = [...rest];
  if (isCommand && !help) {
    const dashdash = args.indexOf("--");
    const tail = [...globals];
    if (logLevel) tail.push("--log-level", logLevel);
    if (dashdash >= 0) args.splice(dashdash, 0, ...tail);
    else args.push(...tail);
  }
  return { args, json, verbose, logLevel, help };
}

function streamSink(stream: NodeJS.WriteStream): TextSink {
  return { write: (text: string) => void stream.write(text) };
}

/** Builds the real context for a command run. */
export function buildContext(level: LogLevel): TrackerContext {
  const env = process.env as Record<string, string | undefined>;
  const settings = readSettings(env);
  const homeDir = env.HOME || homedir();
  const cwd = process.cwd();
  const configDir = resolveConfigDir(env, homeDir, cwd);
  const isStdoutTTY = !!process.stdout.isTTY;
  const isStderrTTY = !!process.stderr.isTTY;
  const color = isStderrTTY && !env.NO_COLOR;
  const stdout = streamSink(process.stdout);
  const stderr = streamSink(process.stderr);
  const log = createLogger(level, stderr, color);
  const ctx: TrackerContext = {
    process: { stdout, stderr, env },
    stdout,
    stderr,
    readStdin: () => Bun.stdin.text(),
    env,
    settings,
    cwd,
    homeDir,
    configDir,
    isStdoutTTY,
    isStderrTTY,
    isStdinTTY: !!process.stdin.isTTY,
    color,
    terminalWidth: process.stdout.columns || 80,
    logLevel: level,
    log,
    now: () => Date.now(),
    sleep: (ms) => Bun.sleep(ms),
    fetch: globalThis.fetch,
    store: createStore(
      configDir,
      () => !settings.noAutoRepair,
      () => log,
    ),
    execPath: process.execPath,
  };
  return ctx;
}

const STRICLI_PARSE_ERROR = -4;

/** Maps Stricli's negative codes and recorded errors to our documented exit codes. */
export function normalizeExitCode(code: number | string | null | undefined): number {
  const n = typeof code === "number" ? code : Number(code ?? 0);
  if (n >= 0) return n;
  if (runtime.lastError instanceof CliError) return exitCodeFor(runtime.lastError);
  if (n === STRICLI_PARSE_ERROR || n === -5) return EXIT.usage;
  return EXIT.unexpected;
}

/** Runs the CLI for argv (without the executable and script) and returns the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const prepared = prepareArgs(argv, app.root as RouteMap<TrackerContext>);
  let level: LogLevel = "info";
  let ctx: TrackerContext | undefined;
  const errSink = streamSink(process.stderr);
  try {
    if (prepared.logLevel !== undefined) level = parseLogLevel(prepared.logLevel, "--log-level");
    else if (prepared.verbose) level = "debug";
    else if (!prepared.help && process.env.TRACKER_LOG_LEVEL?.trim()) {
      level = parseLogLevel(process.env.TRACKER_LOG_LEVEL, "TRACKER_LOG_LEVEL");
    }
  } catch (err) {
    errSink.write(`Error: ${formatError(err)}\n`);
    return exitCodeFor(err);
  }
  runtime.debug = level === "debug" || level === "trace";
  const base = {
    process: {
      stdout: streamSink(process.stdout),
      stderr: errSink,
      env: process.env,
      exitCode: undefined as number | undefined,
    },
    forCommand: () => {
      ctx = buildContext(level);
      return ctx;
    },
  };
  try {
    await run(app, prepared.args, base as never);
  } finally {
    ctx?.store.close();
  }
  return normalizeExitCode(base.process.exitCode);
}
