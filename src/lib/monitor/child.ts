/**
 * The job of `monitor run`: started with stdio inherited, SIGINT/SIGTERM/SIGHUP forwarded to it while it
 * runs, and its end reported as a shell would (its code, 128 + n after signal n, 127 when the
 * command does not exist, 126 when it cannot be executed).
 */
import { constants } from "node:os";
import { CliError } from "../errors.ts";

/** Signals passed on to the job (tracker itself keeps running to send the closing check-in). */
export const FORWARDED_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** How the job ended. */
export interface ChildOutcome {
  /** The exit code a shell would report. */
  code: number;
  /** The signal that ended it, if any. */
  signal?: string;
  /** Why it could not be started, if it was not. */
  spawnError?: string;
}

/** Exit code of a process that died of `signal` (128 + its number, as shells report it). */
export function signalExitCode(signal: string): number {
  const n = (constants.signals as Record<string, number>)[signal];
  return 128 + (n ?? 0);
}

/** Starts `command` and waits for it; never throws (a start failure is an outcome too). */
export async function runChild(
  command: readonly string[],
  opts: { cwd: string; env: Record<string, string> },
): Promise<ChildOutcome> {
  let proc: ReturnType<typeof Bun.spawn>;
  try {
    proc = Bun.spawn([...command], {
      cwd: opts.cwd,
      env: opts.env,
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const name = command[0] ?? "";
    if (code === "EACCES") return { code: 126, spawnError: `${name}: permission denied` };
    return { code: 127, spawnError: `${name}: command not found` };
  }
  const forwarders = FORWARDED_SIGNALS.map((sig) => {
    const forward = () => {
      proc.kill(sig);
    };
    process.on(sig, forward);
    return [sig, forward] as const;
  });
  try {
    await proc.exited;
  } finally {
    for (const [sig, forward] of forwarders) process.off(sig, forward);
  }
  const signal = proc.signalCode === null ? undefined : String(proc.signalCode);
  if (signal) return { code: signalExitCode(signal), signal };
  return { code: proc.exitCode ?? 1 };
}

/**
 * Ends `monitor run` with the job's exit code. The code is the job's, not one of tracker's
 * categories; the message says what happened to the job.
 */
export class JobExitError extends CliError {
  /** A job that ran and exited non-zero has said what it had to say: tracker adds nothing. */
  readonly quiet: boolean;
  constructor(outcome: ChildOutcome) {
    super(
      outcome.spawnError ??
        (outcome.signal
          ? `The command was killed by ${outcome.signal} (exit ${outcome.code}).`
          : `The command exited with code ${outcome.code}.`),
      outcome.code,
    );
    this.name = "JobExitError";
    this.quiet = outcome.spawnError === undefined && outcome.signal === undefined;
  }
}
