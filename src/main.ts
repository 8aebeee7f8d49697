/**
 * The composition root: one run of the CLI for an argv (the real process's, or an in-process one
 * with injected streams and environment), ending in a documented exit code.
 */
import type { RouteMap } from "@stricli/core";
import { run } from "@stricli/core";
import { buildApp, isRootWord, loadRoutesFor, renderFailure, type RunState, stricliStderr } from "./app.ts";
import {
  commandWords,
  expandArgv,
  firstCommandWord,
  needsCommand,
  outputOf,
  prepareArgs,
  scanGlobals,
} from "./argv.ts";
import { buildContext } from "./build-context.ts";
import type { ArgvRun, ContextOverrides, TrackerContext } from "./context.ts";
import { type LogLevel, parseLogLevel } from "./lib/env.ts";
import { CliError } from "./lib/errors.ts";
import { EXIT } from "./lib/exit-codes.ts";
import { exitCodeFor } from "./lib/error-render.ts";
import { sanitizingSink } from "./lib/sanitize.ts";
import { fdSink, isTerminal, STDERR_FD, STDOUT_FD, terminalColumns } from "./lib/stdio.ts";

export { expandArgv, firstCommandWord, type PreparedArgs, prepareArgs } from "./argv.ts";
export { buildContext } from "./build-context.ts";

const STRICLI_PARSE_ERROR = -4;

/** argv[0] that makes a run sentry-cli's (bin.ts puts it there when the executable is `sentry-cli`). */
export const SENTRY_CLI_WORD = "sentry-cli";

/** Maps Stricli's negative codes and the run's recorded error to our documented exit codes. */
export function normalizeExitCode(code: number | string | null | undefined, lastError?: unknown): number {
  const n = typeof code === "number" ? code : Number(code ?? 0);
  if (n >= 0) return n;
  if (lastError instanceof CliError) return exitCodeFor(lastError);
  if (n === STRICLI_PARSE_ERROR || n === -5) return EXIT.usage;
  return EXIT.unexpected;
}

/**
 * Runs the CLI for argv (without the executable and script) and returns the exit code. `root` is
 * only replaced by tests that need a command the real tree does not have (e.g. one that crashes);
 * `over` runs the real app in-process with other streams, environment or terminal facts.
 */
export async function main(
  argv: readonly string[],
  root?: RouteMap<TrackerContext>,
  over?: ContextOverrides,
): Promise<number> {
  return (await runMain(argv, root, over)).exitCode;
}

/** main() plus the error the run ended with (for in-process callers such as `tracker mcp`). */
export async function runMain(
  argv: readonly string[],
  root?: RouteMap<TrackerContext>,
  over?: ContextOverrides,
): Promise<ArgvRun> {
  if (argv[0] === SENTRY_CLI_WORD) {
    const { runAsSentryCli } = await import("./sentry-cli-run.ts");
    return runAsSentryCli(argv.slice(1), root, over, runMain);
  }
  if (argv[0] === "help" && argv.length === 2) {
    const topics = await import("./lib/help-topics.ts");
    if (topics.isHelpTopic(argv[1])) {
      const tty = over?.isStdoutTTY ?? isTerminal(STDOUT_FD);
      const env = over?.env ?? (process.env as Record<string, string | undefined>);
      const width = tty ? (over?.terminalWidth ?? terminalColumns(env)) : 80;
      (over?.stdout ?? fdSink(STDOUT_FD)).write(topics.helpTopic(argv[1], width));
      return { exitCode: 0, error: undefined };
    }
  }
  argv = expandArgv(argv);
  const state: RunState = { debug: false, lastError: undefined, secrets: [], jsonErrors: false };
  const first = firstCommandWord(argv);
  const application = buildApp(root ?? (await loadRoutesFor(first)), state);
  const env = over?.env ?? (process.env as Record<string, string | undefined>);
  const errSink = sanitizingSink(over?.stderr ?? fdSink(STDERR_FD), false, state.secrets);
  // sentry-cli's spellings (`tracker login`, `tracker releases new`) get tracker's form.
  if (first !== undefined && !root && (!isRootWord(first) || /^(releases|projects|issues)$/.test(first))) {
    const { sentryCliHabit } = await import("./lib/sentry-cli/habits.ts");
    const habit = sentryCliHabit(scanGlobals(argv).rest, isRootWord);
    if (habit) {
      errSink.write(`${renderFailure(habit, scanGlobals(argv).json, state)}\n`);
      return { exitCode: exitCodeFor(habit), error: habit };
    }
  }
  let shaped: ReturnType<typeof outputOf>;
  try {
    shaped = outputOf(argv, env, application.root as RouteMap<TrackerContext>);
  } catch (err) {
    const asJson = scanGlobals(argv).json || env.TRACKER_OUTPUT?.trim().toLowerCase() === "json";
    errSink.write(`${renderFailure(err, asJson, state)}\n`);
    return { exitCode: exitCodeFor(err), error: err };
  }
  state.jsonErrors = shaped.json;
  if (shaped.output?.jq !== undefined) {
    // A program that does not compile is a usage error before anything else runs.
    try {
      const { checkJq } = await import("./lib/jq.ts");
      await checkJq(shaped.output.jq);
    } catch (err) {
      errSink.write(`${renderFailure(err, state.jsonErrors, state)}\n`);
      return { exitCode: exitCodeFor(err), error: err };
    }
  }
  const prepared = prepareArgs(argv, application.root as RouteMap<TrackerContext>, shaped.json);
  state.command = commandWords(prepared.args, application.root as RouteMap<TrackerContext>);
  let level: LogLevel = "info";
  try {
    if (prepared.logLevel !== undefined) level = parseLogLevel(prepared.logLevel, "--log-level");
    else if (prepared.verbose) level = "debug";
    else if (!prepared.help && env.TRACKER_LOG_LEVEL?.trim()) {
      level = parseLogLevel(env.TRACKER_LOG_LEVEL, "TRACKER_LOG_LEVEL");
    }
    // Usage text is not a JSON document: `tracker issue --json` names the commands instead.
    const known =
      first === undefined || (application.root as RouteMap<TrackerContext>).getRoutingTargetForInput(first);
    if (prepared.json && !prepared.help && !prepared.command && known) throw needsCommand(first);
  } catch (err) {
    errSink.write(`${renderFailure(err, state.jsonErrors, state)}\n`);
    return { exitCode: exitCodeFor(err), error: err };
  }
  state.debug = level === "debug" || level === "trace";
  let built: TrackerContext | undefined;
  const stdout = sanitizingSink(over?.stdout ?? fdSink(STDOUT_FD), false);
  // Help (asked for, or a route map without a command) is collected and finished in one write.
  const helpRun = prepared.help || !prepared.command;
  let helpText = "";
  const base = {
    process: {
      stdout: helpRun
        ? {
            write: (t: string) => {
              helpText += t;
            },
          }
        : stdout,
      stderr: stricliStderr(errSink),
      env,
      exitCode: undefined as number | undefined,
    },
    forCommand: async () => {
      const ctx = buildContext(level, over, state.secrets, shaped.output, (a, o) => runMain(a, undefined, o));
      built = ctx;
      if (!prepared.help) {
        const { preconnect } = await import("./lib/http/preconnect.ts");
        preconnect(ctx, first);
      }
      // Windows cannot delete a running .exe, so an upgrade leaves the old one as .old until now.
      if (process.platform === "win32") {
        const { removeStaleOldBinary } = await import("./lib/upgrade/swap.ts");
        removeStaleOldBinary(ctx.execPath);
      }
      return ctx;
    },
  };
  // The database is deliberately not closed: closing the last WAL connection checkpoints and
  // deletes the -wal file (1-2 ms per run); every transaction is already committed, and the next
  // open recovers the WAL as usual.
  await run(application, prepared.args, base as never);
  if (helpText !== "") {
    const { finishHelp } = await import("./lib/help-format.ts");
    const tty = over?.isStdoutTTY ?? isTerminal(STDOUT_FD);
    const width = tty ? (over?.terminalWidth ?? terminalColumns(env)) : 80;
    stdout.write(finishHelp(helpText, width, state.command === undefined));
  }
  // Output that finishes asynchronously (a --jq program) is part of the run.
  const pending = built?.inFlight.get("output");
  if (pending) {
    try {
      await pending;
    } catch (err) {
      state.lastError = err;
      errSink.write(`${renderFailure(err, state.jsonErrors, state)}\n`);
      if (over) built?.store.close();
      return { exitCode: exitCodeFor(err), error: err };
    }
  }
  // An in-process run (over given) is one of many in this process: its database handle must go.
  if (over) built?.store.close();
  return { exitCode: normalizeExitCode(base.process.exitCode, state.lastError), error: state.lastError };
}
