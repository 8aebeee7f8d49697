/**
 * A run of tracker as `sentry-cli` (the executable named so, or `tracker sentry-cli …`): the
 * command line is translated (lib/sentry-cli), then run as tracker's own with the translated
 * environment. `--quiet` drops stdout; `--allow-failure`/SENTRY_ALLOW_FAILURE turns a failed run
 * (not a usage error, not a monitored job's own exit code) into one warning and exit 0.
 */
import type { RouteMap } from "@stricli/core";
import type { ArgvRun, ContextOverrides, TrackerContext } from "./context.ts";
import { exitCodeFor, renderError } from "./lib/error-render.ts";
import { EXIT } from "./lib/exit-codes.ts";
import { sanitizingSink } from "./lib/sanitize.ts";
import { SENTRY_CLI_VERSION_LINE, translateSentryCli } from "./lib/sentry-cli/translate.ts";
import { fdSink, STDERR_FD, STDOUT_FD } from "./lib/stdio.ts";

type Runner = (
  argv: readonly string[],
  root?: RouteMap<TrackerContext>,
  over?: ContextOverrides,
) => Promise<ArgvRun>;

/** The warning an allowed failure ends with (sentry-cli's words, so logs read the same). */
export const ALLOWED_FAILURE_WARNING =
  'warning: Command failed, however, "SENTRY_ALLOW_FAILURE" variable or "allow-failure" flag was set. Exiting with 0 exit code.';

/** Runs sentry-cli's argv (after the executable name) through tracker's `run`. */
export async function runAsSentryCli(
  argv: readonly string[],
  root: RouteMap<TrackerContext> | undefined,
  over: ContextOverrides | undefined,
  run: Runner,
): Promise<ArgvRun> {
  const env = over?.env ?? (process.env as Record<string, string | undefined>);
  const secrets: string[] = [];
  const errSink = sanitizingSink(over?.stderr ?? fdSink(STDERR_FD), false, secrets);
  let t: ReturnType<typeof translateSentryCli>;
  try {
    t = translateSentryCli(argv, env, (over?.now ?? Date.now)(), over?.cwd ?? process.cwd());
  } catch (err) {
    errSink.write(`${renderError(err, false, secrets)}\n`);
    return { exitCode: exitCodeFor(err), error: err };
  }
  if (t.env.TRACKER_AUTH_TOKEN) secrets.push(t.env.TRACKER_AUTH_TOKEN);
  if (t.version) {
    (over?.stdout ?? fdSink(STDOUT_FD)).write(`${SENTRY_CLI_VERSION_LINE}\n`);
    return { exitCode: 0, error: undefined };
  }
  const next: ContextOverrides = {
    ...over,
    env: { ...env, ...t.env },
    ...(t.quiet ? { stdout: { write: () => undefined } } : {}),
  };
  const ran = await run(t.argv, root, next);
  const r = t.exitCode ? { ...ran, exitCode: t.exitCode(ran.exitCode) } : ran;
  const jobExit = (r.error as { quiet?: unknown } | null | undefined)?.quiet === true;
  if (r.exitCode !== 0 && t.allowFailure && r.exitCode !== EXIT.usage && !jobExit) {
    errSink.write(`${ALLOWED_FAILURE_WARNING}\n`);
    return { exitCode: 0, error: r.error };
  }
  return r;
}
