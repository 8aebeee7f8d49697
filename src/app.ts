import {
  ArgumentParseError,
  buildApplication,
  buildRouteMap,
  type PartialApplicationConfiguration,
  text_en,
} from "@stricli/core";
import { authRoutes } from "./commands/auth/index.ts";
import { cliRoutes } from "./commands/cli/index.ts";
import { defaultsRoutes } from "./commands/defaults/index.ts";
import { issueListCommand, issueRoutes } from "./commands/issue/index.ts";
import { orgListCommand, orgRoutes } from "./commands/org/index.ts";
import { projectListCommand, projectRoutes } from "./commands/project/index.ts";
import { traceListCommand, traceRoutes } from "./commands/trace/index.ts";
import { upgradeCommand } from "./commands/upgrade/index.ts";
import type { TrackerContext } from "./context.ts";
import { CliError, exitCodeFor, formatError } from "./lib/errors.ts";
import { describe } from "./lib/help.ts";
import { VERSION } from "./lib/version.ts";

/** The root route map: every command of the spec, plus hidden plural shortcuts (`issues` = `issue list`). */
export const rootRoutes = buildRouteMap({
  routes: {
    auth: authRoutes,
    issue: issueRoutes,
    trace: traceRoutes,
    org: orgRoutes,
    project: projectRoutes,
    defaults: defaultsRoutes,
    cli: cliRoutes,
    upgrade: upgradeCommand,
    issues: issueListCommand,
    traces: traceListCommand,
    orgs: orgListCommand,
    projects: projectListCommand,
  },
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
    hideRoute: { issues: true, traces: true, orgs: true, projects: true },
  },
});

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

/** The Stricli application with our error texts and exit codes. */
export const app = buildApplication<TrackerContext>(rootRoutes, APP_CONFIG);
