/**
 * The one place that turns a thrown value into what the user sees and the exit code: expected
 * failures as `Error: <format()>`, anything else as one line plus a pointer to --log-level debug
 * (the stack only when debugging). Every token-shaped value is masked on the way out.
 */
import { CliError } from "./errors.ts";
import { EXIT } from "./exit-codes.ts";
import { redact } from "./redact.ts";

/** Renders any thrown value as the text that follows `Error: ` (no stack for expected failures). */
export function formatError(err: unknown): string {
  if (err instanceof CliError) return err.format();
  if (err instanceof Error) return err.message;
  return String(err);
}

/** The exit code a thrown value maps to. */
export function exitCodeFor(err: unknown): number {
  if (err instanceof CliError) return err.exitCode;
  return EXIT.unexpected;
}

/**
 * The stderr text of a failure: `Error: …` for expected ones, one line (or the stack) otherwise.
 * `secrets` are the run's tokens; they and every prefixed or `Bearer` token are masked, so a
 * server that echoes the token in an error body never gets it printed.
 */
export function renderError(exc: unknown, debug: boolean, secrets: readonly string[] = []): string {
  const mask = (text: string) => redact(text, secrets, { longRuns: false });
  if (exc instanceof CliError) return mask(`Error: ${formatError(exc)}`);
  const msg = exc instanceof Error ? exc.message : String(exc);
  const firstLine = msg.split("\n")[0] ?? "";
  if (debug) return mask(`Error: ${msg}${exc instanceof Error && exc.stack ? `\n${exc.stack}` : ""}`);
  return mask(`Error: ${firstLine}\nRun with --log-level debug for details.`);
}
