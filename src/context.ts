import type { CommandContext, RouteMap } from "@stricli/core";
import type { Database } from "bun:sqlite";
import type { AuthToken } from "./lib/auth/token.ts";
import type { LogLevel, Settings } from "./lib/env.ts";
import type { Logger, TextSink } from "./lib/log.ts";

/** A lazily opened local database, shared by every module of one command run. */
export interface StoreHandle {
  /** The database, opening it on first use; throws a CliError when it cannot be opened. */
  open(): Database;
  /** The database, or undefined (after one warning) when it cannot be opened or written. */
  tryOpen(): Database | undefined;
  /** True once the database turned out read-only (caches are then skipped). */
  readonly readOnly: boolean;
  close(): void;
}

/**
 * Parts of the context a caller may replace: tests and the MCP server run the real app in-process
 * with their own streams, environment, working directory and terminal facts.
 */
export interface ContextOverrides {
  readonly env?: Record<string, string | undefined>;
  readonly stdout?: TextSink;
  readonly stderr?: TextSink;
  readonly cwd?: string;
  readonly isStdoutTTY?: boolean;
  readonly isStderrTTY?: boolean;
  readonly isStdinTTY?: boolean;
  readonly terminalWidth?: number;
  readonly terminalHeight?: number;
  readonly readStdin?: () => Promise<string>;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly fetch?: typeof fetch;
}

/** How a run prints its JSON document (`--fields`, `--max-chars`, `--format md`). */
export interface OutputOptions {
  readonly fields?: readonly string[][];
  readonly maxChars?: number;
  readonly format: "json" | "md";
  /** A jq program the document is filtered through (`--jq`). */
  readonly jq?: string;
}

/** The outcome of one in-process command run. */
export interface ArgvRun {
  readonly exitCode: number;
  /** What the command threw (undefined on success, and for some parser errors). */
  readonly error: unknown;
}

/**
 * Where requests get their token. The HTTP layer asks this and knows nothing of how tokens are
 * stored, chosen or refreshed (main.ts wires the real one, tests may wire their own).
 */
export interface TokenProvider {
  /** The token for the next request. */
  current(ctx: TrackerContext): Promise<AuthToken>;
  /** After a 401: a refreshed token, or undefined when none can be had. */
  afterUnauthorized(ctx: TrackerContext, used: AuthToken): Promise<AuthToken | undefined>;
}

/** Where an organization's API lives (its region's base URL). */
export interface RegionResolver {
  urlForOrg(ctx: TrackerContext, org: string): Promise<string>;
  /** The cached region of `org` answered 404 where the service's own URL did not: forget it. */
  forget(ctx: TrackerContext, org: string): Promise<void>;
}

/** Everything a command may touch. Built by bin.ts for real runs and by tests with fakes. */
export interface TrackerContext extends CommandContext {
  readonly process: CommandContext["process"] & {
    env?: Record<string, string | undefined>;
    exitCode?: number | string | null;
  };
  /** Standard output; every write passes through the terminal sanitiser (lib/sanitize.ts). */
  readonly stdout: TextSink;
  /** Standard error; sanitised like stdout. */
  readonly stderr: TextSink;
  /**
   * Standard error without sanitising, only for tracker's own cursor control on a TTY (the
   * spinner's redraws); any text written here must be sanitised by the writer.
   */
  readonly terminal?: TextSink;
  /** Reads all of stdin as text (used when a token is piped in). */
  readStdin(): Promise<string>;
  readonly env: Record<string, string | undefined>;
  readonly settings: Settings;
  readonly cwd: string;
  readonly homeDir: string;
  readonly configDir: string;
  readonly isStdoutTTY: boolean;
  readonly isStderrTTY: boolean;
  readonly isStdinTTY: boolean;
  /** Colour on stderr/stdout allowed (TTY and NO_COLOR unset). */
  readonly color: boolean;
  readonly terminalWidth: number;
  /** Rows of the terminal on stdout: a list longer than this goes through the pager. */
  readonly terminalHeight: number;
  readonly logLevel: LogLevel;
  readonly log: Logger;
  now(): number;
  sleep(ms: number): Promise<void>;
  readonly fetch: typeof fetch;
  readonly store: StoreHandle;
  readonly tokens: TokenProvider;
  readonly regions: RegionResolver;
  /** The run's own secrets (tokens in use), masked in everything printed; filled as they are used. */
  readonly secrets?: readonly string[];
  /** Path of the running executable (for upgrade and setup). */
  readonly execPath: string;
  /** Keys of what this run has already said (warnings, once each) or learned (a region named by the service). */
  readonly said: Set<string>;
  /** The whole command tree (shell completion), injected by main.ts so commands never import app.ts. */
  readonly commandTree?: () => Promise<RouteMap<TrackerContext>>;
  /** Shaping of the JSON document; absent means plain JSON. */
  readonly output?: OutputOptions;
  /** Work shared by concurrent requests of this run (e.g. one token refresh), by key. */
  readonly inFlight: Map<string, Promise<unknown>>;
  /**
   * What the rate-limit headers of this run's answers said, per endpoint (lib/http/pacing.ts):
   * no request before `until` (epoch ms); with `serial`, one request at a time.
   */
  readonly rateLimits?: Map<
    string,
    { until: number; serial?: Promise<void>; longWait?: Promise<void>; saidUntil?: number }
  >;
  /**
   * Runs another tracker command line in-process with the given overrides (the MCP server's tools).
   * Injected by main.ts, so command modules never import the entry point. Runs must not overlap.
   */
  readonly runArgv?: (argv: readonly string[], over: ContextOverrides) => Promise<ArgvRun>;
}
