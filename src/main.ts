import { homedir } from "node:os";
import type { RouteMap } from "@stricli/core";
import { run } from "@stricli/core";
import { buildApp, loadRootRoutes, loadRoutesFor, renderFailure, type RunState } from "./app.ts";
import type { ArgvRun, ContextOverrides, OutputOptions, TrackerContext } from "./context.ts";
import { createStore, soleLoginUrl } from "./lib/db/index.ts";
import { applyLoginDefault, type LogLevel, parseLogLevel, readSettings } from "./lib/env.ts";
import { CliError, ConfigError, ValidationError } from "./lib/errors.ts";
import { EXIT } from "./lib/exit-codes.ts";
import { exitCodeFor } from "./lib/error-render.ts";
import { createLogger } from "./lib/log.ts";
import { resolveConfigDir } from "./lib/paths.ts";
import { sanitizingSink } from "./lib/sanitize.ts";
import { parseFields } from "./lib/shape.ts";
import { REGIONS, TOKENS } from "./lib/wiring.ts";
import { fdSink, isTerminal, STDERR_FD, STDOUT_FD, terminalColumns, terminalRows } from "./lib/stdio.ts";

/** The service URL an org token's claim names; loaded on first use (valibot stays out of startup). */
function orgClaimUrl(token: string): string | undefined {
  const { decodeOrgClaim } = require("./lib/auth/token-kind.ts") as typeof import("./lib/auth/token-kind.ts");
  return decodeOrgClaim(token)?.url;
}

/** Global flags pulled out of argv, plus the arguments left for Stricli. */
export interface PreparedArgs {
  args: string[];
  json: boolean;
  verbose: boolean;
  logLevel: string | undefined;
  help: boolean;
  /** The command words reach a command (so flags go to it), rather than stopping at a route map. */
  command: boolean;
}

const HELP_FLAGS = new Set(["--help", "-h", "--helpAll", "--help-all", "-H"]);

/** argv with the global flags taken out: what they set, the rest, and where `--` starts in it. */
interface ScannedArgs {
  rest: string[];
  escapeAt: number;
  json: boolean;
  /** `--no-json` was given (it beats TRACKER_OUTPUT=json). */
  noJson: boolean;
  /** Raw values of the output-shaping flags (validated by outputOptions). */
  shaping: { fields?: string; maxChars?: string; format?: string; jq?: string };
  verbose: boolean;
  logLevel: string | undefined;
  help: boolean;
}

/** The words of argv that route to a command (`issue list`), or undefined. */
function commandWords(args: readonly string[], root: RouteMap<TrackerContext>): string | undefined {
  const words: string[] = [];
  let target: unknown = root;
  for (const word of args) {
    if (!isRouteMap(target) || word.startsWith("-")) break;
    const next = target.getRoutingTargetForInput(word);
    if (!next) break;
    words.push(word);
    target = next;
  }
  return words.length > 0 ? words.join(" ") : undefined;
}

function isRouteMap(t: unknown): t is RouteMap<TrackerContext> {
  return typeof t === "object" && t !== null && "getRoutingTargetForInput" in t;
}

/**
 * True when the leading command words of `args` reach a command (including a route map's default
 * command), i.e. when Stricli will parse flags and the global flags must be handed to it.
 */
function reachesCommand(args: readonly string[], root: RouteMap<TrackerContext>): boolean {
  let target: unknown = root;
  for (const word of args) {
    if (!isRouteMap(target) || word.startsWith("-")) break;
    const next = target.getRoutingTargetForInput(word);
    if (!next) break;
    target = next;
  }
  if (target === root) return false;
  return !isRouteMap(target) || target.getDefaultCommand() !== undefined;
}

/**
 * Moves global flags (`--json`, `--verbose`, `--log-level <l>`) from anywhere before `--` to the end
 * (or just before `--`), because Stricli reads flags only at the leaf command. Repeats collapse to one
 * canonical occurrence (the last value wins), so `tracker --json org list --json` is not an error.
 * Route-map targets and help requests get none: they have no flags to receive them.
 */
export function prepareArgs(
  argv: readonly string[],
  root: RouteMap<TrackerContext>,
  jsonMode?: boolean,
): PreparedArgs {
  const scanned = scanGlobals(argv);
  return placeGlobals(scanned, root, jsonMode ?? scanned.json);
}

/** The output options of argv (see outputOptions). */
export function outputOf(argv: readonly string[], env: Record<string, string | undefined>) {
  return outputOptions(scanGlobals(argv), env);
}

/** The first command word of argv once global flags (and a --log-level value) are taken out. */
export function firstCommandWord(argv: readonly string[]): string | undefined {
  return commandWord(scanGlobals(argv));
}

function commandWord(s: ScannedArgs): string | undefined {
  const first = s.rest[0];
  return first === undefined || first.startsWith("-") ? undefined : first;
}

function scanGlobals(argv: readonly string[]): ScannedArgs {
  const rest: string[] = [];
  let json = false;
  let noJson = false;
  let verbose = false;
  let logLevel: string | undefined;
  let help = false;
  let escapeAt = -1;
  const shaping: ScannedArgs["shaping"] = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === "--") {
      escapeAt = rest.length;
      rest.push(...argv.slice(i));
      break;
    }
    const shape = SHAPING_FLAGS[a.split("=")[0] as string];
    if (shape) {
      const eq = a.indexOf("=");
      if (eq >= 0) shaping[shape] = a.slice(eq + 1);
      else {
        const value = argv[i + 1];
        shaping[shape] = value === undefined || value.startsWith("--") ? "" : value;
        if (value !== undefined && !value.startsWith("--")) i++;
      }
      continue;
    }
    if (a === "--json" || a === "--no-json" || a === "--noJson") {
      json = a === "--json";
      noJson = !json;
    } else if (a === "--verbose" || a === "--no-verbose" || a === "--noVerbose") {
      verbose = a === "--verbose";
    } else if (a === "--log-level" || a === "--logLevel") {
      // A missing value (end of argv or another flag) is reported by parseLogLevel as ''.
      const value = argv[i + 1];
      if (value === undefined || value.startsWith("-")) logLevel = "";
      else {
        logLevel = value;
        i++;
      }
    } else if (a.startsWith("--log-level=") || a.startsWith("--logLevel=")) {
      logLevel = a.slice(a.indexOf("=") + 1);
    } else {
      if (HELP_FLAGS.has(a)) help = true;
      rest.push(a);
    }
  }
  return { rest, escapeAt, json, noJson, verbose, logLevel, help, shaping };
}

/** Output-shaping flags, read by main for every command (they never reach Stricli). */
const SHAPING_FLAGS: Record<string, keyof ScannedArgs["shaping"]> = {
  "--fields": "fields",
  "--max-chars": "maxChars",
  "--maxChars": "maxChars",
  "--format": "format",
  "--jq": "jq",
};

/**
 * The output options of a run: `--fields` and `--format md` imply JSON documents (commands take
 * their --json path), `--max-chars` alone means markdown, TRACKER_OUTPUT=json makes JSON the
 * default. Bad values are validation errors before anything runs.
 */
function outputOptions(
  s: ScannedArgs,
  env: Record<string, string | undefined>,
): { json: boolean; output?: OutputOptions } {
  const envOut = env.TRACKER_OUTPUT?.trim().toLowerCase();
  if (envOut && envOut !== "json" && envOut !== "text") {
    throw new ConfigError(
      `TRACKER_OUTPUT must be json or text, got '${env.TRACKER_OUTPUT}'.`,
      "Unset it, or set TRACKER_OUTPUT=json.",
    );
  }
  const { fields, maxChars, format, jq } = s.shaping;
  if (jq !== undefined && jq.trim() === "")
    throw new ValidationError("--jq needs a jq program, e.g. '.data[].shortId'.", "jq");
  if (format !== undefined && format !== "json" && format !== "md") {
    throw new ValidationError(`--format must be json or md, got '${format}'.`, "format");
  }
  let max: number | undefined;
  if (maxChars !== undefined) {
    if (!/^\d{3,8}$/.test(maxChars.trim()) || Number(maxChars) < 200) {
      throw new ValidationError(
        `--max-chars must be a whole number from 200 to 99999999, got '${maxChars}'.`,
        "max-chars",
      );
    }
    max = Number(maxChars);
  }
  const paths = fields === undefined ? undefined : parseFields(fields);
  const md = format === "md" || (max !== undefined && format === undefined && !s.json && envOut !== "json");
  const json =
    jq !== undefined ||
    (!s.noJson && (s.json || envOut === "json" || md || paths !== undefined || max !== undefined));
  if (!json) return { json };
  return {
    json,
    output: {
      format: md && jq === undefined ? "md" : "json",
      ...(paths ? { fields: paths } : {}),
      ...(max ? { maxChars: max } : {}),
      ...(jq !== undefined ? { jq } : {}),
    },
  };
}

function placeGlobals(s: ScannedArgs, root: RouteMap<TrackerContext>, jsonMode = s.json): PreparedArgs {
  const { rest, escapeAt, verbose, logLevel, help } = s;
  const json = jsonMode;
  const args = [...rest];
  const command = reachesCommand(escapeAt >= 0 ? rest.slice(0, escapeAt) : rest, root);
  if (!help && command) {
    const tail: string[] = [];
    if (json) tail.push("--json");
    if (verbose) tail.push("--verbose");
    // Case is normalised here because the leaf's enum flag is case-sensitive; main validates the value.
    if (logLevel) tail.push("--log-level", logLevel.trim().toLowerCase());
    args.splice(escapeAt >= 0 ? escapeAt : args.length, 0, ...tail);
  }
  return { args, json, verbose, logLevel, help, command };
}

/** Short flags that take a value, so `-n5` can mean `-n 5` (limit, period, cursor, query, sort). */
const VALUE_ALIASES = new Set(["n", "t", "c", "q", "s"]);

/**
 * argv as the parser should see it: `tracker help [words…]` is `tracker [words…] --help`, and a
 * value glued to a short flag (`-n5`, `-t24h`) is split off, as other CLIs allow.
 */
export function expandArgv(argv: readonly string[]): string[] {
  const end = argv.indexOf("--");
  const head = end >= 0 ? argv.slice(0, end) : [...argv];
  const tail = end >= 0 ? argv.slice(end) : [];
  const out: string[] = [];
  for (const a of head) {
    const glued = /^-([A-Za-z])(.+)$/.exec(a);
    if (glued && VALUE_ALIASES.has(glued[1] as string)) out.push(`-${glued[1]}`, glued[2] as string);
    else out.push(a);
  }
  if (out[0] === "help") return [...out.slice(1), "--help", ...tail];
  return [...out, ...tail];
}

/** The usage error for `--json` on a command word that names a group (or nothing), not a command. */
function needsCommand(word: string | undefined): CliError {
  const what = word ? `\`tracker ${word}\`` : "`tracker`";
  return new CliError(
    `${what} needs a command; --json applies to commands.\nRun '${what.slice(1, -1)} --help' to see them.`,
    EXIT.usage,
  );
}

/** Builds the context for a command run: the real process's, with `over` replacing parts of it. */
export function buildContext(
  level: LogLevel,
  over: ContextOverrides = {},
  secrets: string[] = [],
  output?: OutputOptions,
): TrackerContext {
  const env = over.env ?? (process.env as Record<string, string | undefined>);
  const settings = readSettings(env);
  const homeDir = env.HOME || homedir();
  const cwd = over.cwd ?? process.cwd();
  const configDir = resolveConfigDir(env, homeDir, cwd);
  const isStdoutTTY = over.isStdoutTTY ?? isTerminal(STDOUT_FD);
  const isStderrTTY = over.isStderrTTY ?? isTerminal(STDERR_FD);
  const color = isStderrTTY && !env.NO_COLOR;
  const rawStderr = over.stderr ?? fdSink(STDERR_FD);
  // One place for terminal safety: every write of a command, human or not, is sanitised here.
  const stdout = sanitizingSink(over.stdout ?? fdSink(STDOUT_FD), isStdoutTTY && !env.NO_COLOR);
  const stderr = sanitizingSink(rawStderr, color);
  const log = createLogger(level, stderr, color, secrets);
  const store = createStore(
    configDir,
    () => !settings.noAutoRepair,
    () => log,
  );
  if (!env.TRACKER_URL?.trim()) {
    // An environment token belongs to the default service (or the one its org-token claim names),
    // never to the host of a stored login: that URL applies to the stored login only.
    const envToken = settings.authToken ?? settings.token;
    applyLoginDefault(settings, envToken ? () => orgClaimUrl(envToken) : () => soleLoginUrl(store, configDir));
  }
  const ctx: TrackerContext = {
    process: { stdout, stderr, env },
    stdout,
    stderr,
    terminal: rawStderr,
    readStdin: over.readStdin ?? (() => Bun.stdin.text()),
    env,
    settings,
    cwd,
    homeDir,
    configDir,
    isStdoutTTY,
    isStderrTTY,
    isStdinTTY: over.isStdinTTY ?? isTerminal(0),
    color,
    terminalWidth: over.terminalWidth ?? terminalColumns(env),
    terminalHeight: over.terminalHeight ?? terminalRows(env),
    logLevel: level,
    log,
    now: over.now ?? (() => Date.now()),
    sleep: over.sleep ?? ((ms) => Bun.sleep(ms)),
    fetch: over.fetch ?? globalThis.fetch,
    store,
    execPath: process.execPath,
    tokens: TOKENS,
    regions: REGIONS,
    said: new Set(),
    commandTree: loadRootRoutes,
    ...(output ? { output } : {}),
    inFlight: new Map(),
    runArgv: (argv, runOver) => runMain(argv, undefined, runOver),
  };
  return ctx;
}

const STRICLI_PARSE_ERROR = -4;

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
  argv = expandArgv(argv);
  const state: RunState = { debug: false, lastError: undefined, secrets: [], jsonErrors: false };
  const first = firstCommandWord(argv);
  const application = buildApp(root ?? (await loadRoutesFor(first)), state);
  const env = over?.env ?? (process.env as Record<string, string | undefined>);
  const errSink = sanitizingSink(over?.stderr ?? fdSink(STDERR_FD), false);
  let shaped: ReturnType<typeof outputOf>;
  try {
    shaped = outputOf(argv, env);
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
      stderr: errSink,
      env,
      exitCode: undefined as number | undefined,
    },
    forCommand: async () => {
      const ctx = buildContext(level, over, state.secrets, shaped.output);
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
