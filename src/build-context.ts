/** The context of a command run: the real process's streams, environment and state, or injected ones. */
import { homedir } from "node:os";
import { loadRootRoutes, stricliStderr } from "./app.ts";
import { forcedTty } from "./lib/automation.ts";
import type { ContextOverrides, OutputOptions, StoreHandle, TrackerContext } from "./context.ts";
import { createStore } from "./lib/db/index.ts";
import { applyLoginDefault, type LogLevel, readSettings } from "./lib/env.ts";
import { createLogger } from "./lib/log.ts";
import { pinOrgTokenUrl } from "./lib/org-token-url.ts";
import { resolveConfigDir } from "./lib/paths.ts";
import { sanitizingSink } from "./lib/sanitize.ts";
import { fdSink, isTerminal, STDERR_FD, STDOUT_FD, terminalColumns, terminalRows } from "./lib/stdio.ts";
import { REGIONS, TOKENS } from "./lib/wiring.ts";

/** The service URL an org token's claim names; loaded on first use (valibot stays out of startup). */
function orgClaimUrl(token: string): string | undefined {
  const { decodeOrgClaim } = require("./lib/auth/token-kind.ts") as typeof import("./lib/auth/token-kind.ts");
  return decodeOrgClaim(token)?.url;
}

/** The URL of the only stored login; its module (and valibot) load only when a URL is needed. */
function storedLoginUrl(store: StoreHandle, configDir: string): string | undefined {
  const { soleLoginUrl } = require("./lib/db/auth.ts") as typeof import("./lib/db/auth.ts");
  return soleLoginUrl(store, configDir);
}

/** Builds the context for a command run: the real process's, with `over` replacing parts of it. */
export function buildContext(
  level: LogLevel,
  over: ContextOverrides = {},
  secrets: string[] = [],
  output: OutputOptions | undefined,
  runArgv: TrackerContext["runArgv"],
): TrackerContext {
  const env = over.env ?? (process.env as Record<string, string | undefined>);
  const homeDir = env.HOME || homedir();
  const cwd = over.cwd ?? process.cwd();
  // Files are read lazily, after `log` exists: an ignored workspace file is one warning.
  const settings = readSettings(env, { cwd, homeDir, warn: (text) => log.warn(text) });
  const configDir = resolveConfigDir(env, homeDir, cwd);
  // TRACKER_FORCE_TTY=1 behaves as on a terminal (tests and recordings of terminal output).
  const forced = forcedTty(env);
  const isStdoutTTY = over.isStdoutTTY ?? (forced || isTerminal(STDOUT_FD));
  const isStderrTTY = over.isStderrTTY ?? (forced || isTerminal(STDERR_FD));
  const color = isStderrTTY && !env.NO_COLOR;
  const rawStderr = over.stderr ?? fdSink(STDERR_FD);
  // One place for terminal safety: every write of a command, human or not, is sanitised here.
  const stdout = sanitizingSink(over.stdout ?? fdSink(STDOUT_FD), isStdoutTTY && !env.NO_COLOR, secrets);
  const stderr = sanitizingSink(rawStderr, color, secrets);
  const log = createLogger(level, stderr, color, secrets);
  const store = createStore(
    configDir,
    () => !settings.noAutoRepair,
    () => log,
  );
  // Without TRACKER_URL/SENTRY_URL (applyLoginDefault checks): an environment token belongs to the
  // default service (or the one its org-token claim names), never to a stored login's host.
  const envToken = settings.authToken ?? settings.token;
  applyLoginDefault(
    settings,
    envToken ? () => orgClaimUrl(envToken) : () => storedLoginUrl(store, configDir),
  );
  // With TRACKER_URL/SENTRY_URL set, an org token's own service still wins (org-token-url.ts);
  // only org tokens (sntrys_) have a claim, so no other token loads the decoder.
  if (envToken?.startsWith("sntrys_")) pinOrgTokenUrl(settings, () => orgClaimUrl(envToken));
  const ctx: TrackerContext = {
    // Stricli writes a command's failure here.
    process: { stdout, stderr: stricliStderr(stderr), env },
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
    secrets,
    execPath: process.execPath,
    tokens: TOKENS,
    regions: REGIONS,
    said: new Set(),
    commandTree: loadRootRoutes,
    ...(output ? { output } : {}),
    inFlight: new Map(),
    rateLimits: new Map(),
    runArgv,
  };
  return ctx;
}
