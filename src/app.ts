import {
  type Application,
  ArgumentParseError,
  buildApplication,
  buildRouteMap,
  type Command,
  help,
  type PartialApplicationConfiguration,
  type RouteMap,
  text_en,
  version,
} from "@stricli/core";
import type { TrackerContext } from "./context.ts";
import { CliError, ValidationError } from "./lib/errors.ts";
import { errorToJson } from "./lib/error-json.ts";
import { exitCodeFor, renderError } from "./lib/error-render.ts";
import { EXIT } from "./lib/exit-codes.ts";
import { describe } from "./lib/help.ts";
import { VERSION } from "./lib/version.ts";
import { editDistance } from "./lib/near.ts";

type RootTarget = RouteMap<TrackerContext> | Command<TrackerContext>;

/**
 * The top-level command words, in help order, and how to load each one's routes. A run loads only
 * the word it was given: building and validating the whole tree in Stricli costs about 1 ms of a
 * 20 ms command. The plural words are hidden shortcuts (`issues` = `issue list`).
 */
const ROOT_ROUTES: Record<string, () => Promise<RootTarget>> = {
  auth: async () => (await import("./commands/auth/index.ts")).authRoutes,
  issue: async () => (await import("./commands/issue/index.ts")).issueRoutes,
  event: async () => (await import("./commands/event/index.ts")).eventRoutes,
  trace: async () => (await import("./commands/trace/index.ts")).traceRoutes,
  log: async () => (await import("./commands/log/index.ts")).logRoutes,
  span: async () => (await import("./commands/span/index.ts")).spanRoutes,
  query: async () => (await import("./commands/query/index.ts")).queryCommand,
  attribute: async () => (await import("./commands/attribute/index.ts")).attributeRoutes,
  release: async () => (await import("./commands/release/index.ts")).releaseRoutes,
  monitor: async () => (await import("./commands/monitor/index.ts")).monitorRoutes,
  feedback: async () => (await import("./commands/feedback/index.ts")).feedbackRoutes,
  replay: async () => (await import("./commands/replay/index.ts")).replayRoutes,
  sourcemap: async () => (await import("./commands/sourcemap/index.ts")).sourcemapRoutes,
  proguard: async () => (await import("./commands/proguard/index.ts")).proguardRoutes,
  "dart-symbol-map": async () => (await import("./commands/dart-symbol-map/index.ts")).dartSymbolMapRoutes,
  "code-mappings": async () => (await import("./commands/code-mappings/index.ts")).codeMappingsRoutes,
  "debug-files": async () => (await import("./commands/debug-files/index.ts")).debugFilesRoutes,
  status: async () => (await import("./commands/status/index.ts")).statusCommand,
  org: async () => (await import("./commands/org/index.ts")).orgRoutes,
  project: async () => (await import("./commands/project/index.ts")).projectRoutes,
  defaults: async () => (await import("./commands/defaults/index.ts")).defaultsRoutes,
  cli: async () => (await import("./commands/cli/index.ts")).cliRoutes,
  upgrade: async () => (await import("./commands/upgrade/index.ts")).upgradeCommand,
  api: async () => (await import("./commands/api/index.ts")).apiCommand,
  completion: async () => (await import("./commands/completion/index.ts")).completionCommand,
  mcp: async () => (await import("./commands/mcp/index.ts")).mcpCommand,
  __complete: async () => (await import("./commands/completion/index.ts")).completeCommand,
  issues: async () => (await import("./commands/issue/index.ts")).issueListCommand,
  traces: async () => (await import("./commands/trace/index.ts")).traceListCommand,
  orgs: async () => (await import("./commands/org/index.ts")).orgListCommand,
  projects: async () => (await import("./commands/project/index.ts")).projectListCommand,
  releases: async () => (await import("./commands/release/index.ts")).releaseListCommand,
  sourcemaps: async () => (await import("./commands/sourcemap/index.ts")).sourcemapRoutes,
  explore: async () => (await import("./commands/query/index.ts")).queryCommand,
  dif: async () => (await import("./commands/debug-files/index.ts")).debugFilesRoutes,
};

const HIDDEN_ROUTES = new Set([
  "issues",
  "traces",
  "sourcemaps",
  "orgs",
  "projects",
  "__complete",
  "explore",
  "releases",
  "dif",
]);

function rootMap(routes: Record<string, RootTarget>): RouteMap<TrackerContext> {
  return buildRouteMap({
    routes,
    docs: {
      brief: "Command-line client for Sentry-compatible error tracking",
      fullDescription: describe(
        "Reads and changes issues, reads events and traces, runs AI analysis of issues, and manages authentication and defaults. Global flags (below) go before or after the command words; with --json (or TRACKER_OUTPUT=json) errors are one JSON object on stderr and the exit codes are the same. Help topics: tracker help environment, tracker help exit-codes, tracker help query, tracker help sentry-cli (sentry-cli scripts run unchanged).",
        [
          "tracker auth login",
          "tracker issue list acme/web",
          "tracker issue view WEB-4Y --json",
          "tracker trace list -n 50",
        ],
      ),
      hideRoute: Object.fromEntries(Object.keys(routes).map((k) => [k, HIDDEN_ROUTES.has(k)])),
    },
  });
}

/** True when `word` is one of tracker's top-level command words (hidden ones included). */
export function isRootWord(word: string): boolean {
  return Object.hasOwn(ROOT_ROUTES, word);
}

/** The root route map with every command (root help, SKILL.md generation, tests). */
export async function loadRootRoutes(): Promise<RouteMap<TrackerContext>> {
  const entries = await Promise.all(
    Object.entries(ROOT_ROUTES).map(async ([word, load]) => [word, await load()] as const),
  );
  return rootMap(Object.fromEntries(entries));
}

/**
 * What one run remembers while Stricli renders its failures: whether to show stacks, and the error
 * the command ended with (the exit code and the MCP server's error objects come from it). One per
 * run, so in-process runs (tests, `tracker mcp`) never see each other's errors.
 */
export interface RunState {
  debug: boolean;
  lastError: unknown;
  /** The run's tokens (registered by the logger's addSecret); masked in every rendered error. */
  secrets: string[];
  /** JSON mode (--json or TRACKER_OUTPUT=json): failures are printed as one JSON object. */
  jsonErrors: boolean;
  /** The command words of the run (`issue list`), for messages about its flags. */
  command?: string;
}

/** Stricli's parser messages in tracker's words, with the exit code of the class they belong to. */
export function parserFailure(
  msg: string,
  command: string | undefined,
): { message: string; error?: CliError } {
  const where = command ? ` for tracker ${command}` : "";
  const unknown = /^No (?:flag|alias) registered for (-{1,2}[^\s,]+)/.exec(msg);
  if (unknown) return { message: `Unknown flag ${unknown[1]}${where}.` };
  const enumMiss = /^Expected "(.*)" to be one of \((.*)\)(?:, did you mean "(.*)")?/.exec(msg);
  if (enumMiss) {
    const [, got, allowed, guess] = enumMiss as unknown as [string, string, string, string | undefined];
    const near = guess !== undefined && editDistance(got.toLowerCase(), guess.toLowerCase()) <= 2;
    const message = `'${got}' is not one of ${allowed.split("|").join(", ")}${where}.${near ? ` Did you mean ${guess}?` : ""}`;
    // A value outside its list is a bad flag value like any other (exit 21), not a usage error.
    return { message, error: new ValidationError(message) };
  }
  return { message: msg };
}

/** A failure as the run prints it on stderr: `Error: …` text, or one JSON object in JSON mode. */
export function renderFailure(exc: unknown, json: boolean, state: RunState): string {
  // A quiet failure (monitor run's job exited non-zero) is its exit code alone in text mode.
  if (!json && (exc as { quiet?: unknown } | null)?.quiet === true) return "";
  if (!json) return renderError(exc, state.debug, state.secrets);
  return JSON.stringify(errorToJson(exc, exitCodeFor(exc), "", state.secrets));
}

/**
 * The stderr Stricli writes a failure to: it ends every error text with a newline, so a quiet
 * failure's empty text (monitor run's job exit) would print an empty line; that is dropped.
 */
export function stricliStderr(sink: { write(text: string): void }): { write(text: string): void } {
  return { write: (t) => (t === "\n" ? undefined : sink.write(t)) };
}

/** Stricli configuration of a run's application: our error texts and exit codes. */
export function appConfig(state: RunState): PartialApplicationConfiguration {
  const render = (exc: unknown): string => {
    state.lastError = exc;
    return renderFailure(exc, state.jsonErrors, state);
  };
  // Stricli's own usage errors (unknown flag or command) carry no error class of ours.
  const usage = (message: string, text: string): string =>
    state.jsonErrors ? JSON.stringify({ error: { class: "UsageError", code: EXIT.usage, message } }) : text;
  return {
    name: "tracker",
    versionInfo: { currentVersion: VERSION },
    // `--` ends flag parsing, so a positional may start with a dash (main.ts keeps globals before it).
    scanner: { caseStyle: "allow-kebab-for-camel", allowArgumentEscapeSequence: true },
    documentation: { caseStyle: "convert-camel-to-kebab", useAliasInUsageLine: true },
    determineExitCode: exitCodeFor,
    localization: {
      text: {
        ...text_en,
        noCommandRegisteredForInput: ({ input, corrections }) => {
          // Only near matches are suggested (Stricli offers anything loosely similar).
          const near = corrections.filter((c) => editDistance(c.replace(/`/g, ""), input) <= 2);
          const hint = near.length > 0 ? ` Did you mean ${near.join(" or ")}?` : "";
          return usage(
            `Unknown command '${input}'.${hint}`,
            `Error: Unknown command '${input}'.${hint}\nRun 'tracker --help' to see every command.`,
          );
        },
        exceptionWhileParsingArguments: (exc) => {
          const inner =
            exc instanceof ArgumentParseError
              ? (exc as ArgumentParseError & { exception: unknown }).exception
              : exc;
          if (inner instanceof CliError) return render(inner);
          const { message, error } = parserFailure(
            exc instanceof Error ? exc.message : String(exc),
            state.command,
          );
          if (error) return render(error);
          state.lastError = exc;
          return usage(message, `Error: ${message}\nRun the command with --help for usage.`);
        },
        exceptionWhileLoadingCommandContext: (exc) => `${render(exc)}\n`,
        exceptionWhileLoadingCommandFunction: (exc) => render(exc),
        exceptionWhileRunningCommand: (exc) => render(exc),
        commandErrorResult: (err) => render(err),
      },
    },
  };
}

/**
 * The root route map for a run whose first command word is `word`: only that word's routes
 * when it names one (help, errors and suggestions below it are the same as in the full tree),
 * else the whole tree (root help, unknown words with did-you-mean).
 */
export async function loadRoutesFor(word: string | undefined): Promise<RouteMap<TrackerContext>> {
  const load = word === undefined || !Object.hasOwn(ROOT_ROUTES, word) ? undefined : ROOT_ROUTES[word];
  return load ? rootMap({ [word as string]: await load() }) : await loadRootRoutes();
}

/** The Stricli application of one run over a root route map. */
export function buildApp(root: RouteMap<TrackerContext>, state: RunState): Application<TrackerContext> {
  return buildApplication<TrackerContext>(root, appConfig(state), INTEGRATIONS);
}

/**
 * Stricli's default integrations but one: `--help-all` has no `-H` alias, so `-H` can be
 * `--header` (tracker api, as in gh api) instead of printing help and sending nothing.
 */
const FORMATTING = {
  caseStyle: "convert-camel-to-kebab",
  useAliasInUsageLine: true,
  onlyRequiredInUsageLine: false,
} as const;
const INTEGRATIONS = {
  help: help<TrackerContext>({
    brief: text_en.briefs.help,
    alias: "h",
    defaultForRouteMap: true,
    includeHidden: false,
    formatting: FORMATTING,
  }),
  helpAll: help<TrackerContext>({
    brief: text_en.briefs.helpAll,
    alias: false,
    hidden: true,
    includeHidden: true,
    formatting: FORMATTING,
  }),
  version: version<TrackerContext>({
    brief: text_en.briefs.version,
    info: { currentVersion: VERSION },
    alias: "v",
    hook: "app:start",
  }),
};
