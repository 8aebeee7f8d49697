import {
  type Application,
  ArgumentParseError,
  buildApplication,
  buildRouteMap,
  type Command,
  type PartialApplicationConfiguration,
  type RouteMap,
  text_en,
} from "@stricli/core";
import type { TrackerContext } from "./context.ts";
import { CliError, exitCodeFor, formatError } from "./lib/errors.ts";
import { describe } from "./lib/help.ts";
import { VERSION } from "./lib/version.ts";

type RootTarget = RouteMap<TrackerContext> | Command<TrackerContext>;

/**
 * The top-level command words, in help order, and how to load each one's routes. A run loads only
 * the word it was given: building and validating the whole tree in Stricli costs about 1 ms of a
 * 20 ms command. The plural words are hidden shortcuts (`issues` = `issue list`).
 */
const ROOT_ROUTES: Record<string, () => Promise<RootTarget>> = {
  auth: async () => (await import("./commands/auth/index.ts")).authRoutes,
  issue: async () => (await import("./commands/issue/index.ts")).issueRoutes,
  trace: async () => (await import("./commands/trace/index.ts")).traceRoutes,
  org: async () => (await import("./commands/org/index.ts")).orgRoutes,
  project: async () => (await import("./commands/project/index.ts")).projectRoutes,
  defaults: async () => (await import("./commands/defaults/index.ts")).defaultsRoutes,
  cli: async () => (await import("./commands/cli/index.ts")).cliRoutes,
  upgrade: async () => (await import("./commands/upgrade/index.ts")).upgradeCommand,
  mcp: async () => (await import("./commands/mcp/index.ts")).mcpCommand,
  issues: async () => (await import("./commands/issue/index.ts")).issueListCommand,
  traces: async () => (await import("./commands/trace/index.ts")).traceListCommand,
  orgs: async () => (await import("./commands/org/index.ts")).orgListCommand,
  projects: async () => (await import("./commands/project/index.ts")).projectListCommand,
};

const HIDDEN_ROUTES = new Set(["issues", "traces", "orgs", "projects"]);

function rootMap(routes: Record<string, RootTarget>): RouteMap<TrackerContext> {
  return buildRouteMap({
    routes,
    docs: {
      brief: "Command-line client for Sentry-compatible error tracking",
      fullDescription: describe(
        "Reads issues and traces, runs AI analysis of issues, and manages authentication and defaults. Every command accepts --json, --verbose and --log-level (before or after the command words).",
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

/** The root route map with every command (root help, SKILL.md generation, tests). */
export async function loadRootRoutes(): Promise<RouteMap<TrackerContext>> {
  const entries = await Promise.all(
    Object.entries(ROOT_ROUTES).map(async ([word, load]) => [word, await load()] as const),
  );
  return rootMap(Object.fromEntries(entries));
}

/** Runtime facts the error formatters need (set by main before running). */
export const runtime: { debug: boolean; lastError: unknown } = { debug: false, lastError: undefined };

/**
 * Renders a thrown value for stderr: expected failures as `Error: <format()>`, anything else as one
 * line plus a pointer to --log-level debug (the stack only when debugging).
 */
export function renderError(exc: unknown, debug: boolean): string {
  if (exc instanceof CliError) return `Error: ${formatError(exc)}`;
  const msg = exc instanceof Error ? exc.message : String(exc);
  const firstLine = msg.split("\n")[0] ?? "";
  if (debug) return `Error: ${msg}${exc instanceof Error && exc.stack ? `\n${exc.stack}` : ""}`;
  return `Error: ${firstLine}\nRun with --log-level debug for details.`;
}

function render(exc: unknown): string {
  runtime.lastError = exc;
  return renderError(exc, runtime.debug);
}

/** Stricli configuration of the application; tests build throwaway apps with the same texts and codes. */
export const APP_CONFIG: PartialApplicationConfiguration = {
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
        const hint = corrections.length > 0 ? ` Did you mean ${corrections.join(" or ")}?` : "";
        return `Error: Unknown command '${input}'.${hint}\nRun 'tracker --help' to see every command.`;
      },
      exceptionWhileParsingArguments: (exc) => {
        const inner =
          exc instanceof ArgumentParseError
            ? (exc as ArgumentParseError & { exception: unknown }).exception
            : exc;
        if (inner instanceof CliError) return render(inner);
        runtime.lastError = exc;
        const msg = exc instanceof Error ? exc.message : String(exc);
        return `Error: ${msg}\nRun the command with --help for usage.`;
      },
      exceptionWhileLoadingCommandContext: (exc) => `${render(exc)}\n`,
      exceptionWhileLoadingCommandFunction: (exc) => render(exc),
      exceptionWhileRunningCommand: (exc) => render(exc),
      commandErrorResult: (err) => render(err),
    },
  },
};

/**
 * The Stricli application for a run whose first command word is `word`: only that word's routes
 * when it names one (help, errors and suggestions below it are the same as in the full tree),
 * else the whole tree (root help, unknown words with did-you-mean).
 */
export async function loadApp(word: string | undefined): Promise<Application<TrackerContext>> {
  const load = word === undefined || !Object.hasOwn(ROOT_ROUTES, word) ? undefined : ROOT_ROUTES[word];
  const root = load ? rootMap({ [word as string]: await load() }) : await loadRootRoutes();
  return buildApplication<TrackerContext>(root, APP_CONFIG);
}
