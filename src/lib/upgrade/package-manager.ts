/** Runs a package manager (npm, brew) for an upgrade and turns its failures into UpgradeErrors. */
import type { TrackerContext } from "../../context.ts";
import { childEnv } from "../child-env.ts";
import { UpgradeError } from "../errors.ts";

/** What a package manager run printed. */
export interface PmResult {
  command: string[];
  stdout: string;
  stderr: string;
}

/** How many trailing lines of a failed run's output go into the error. */
export const PM_OUTPUT_TAIL_LINES = 8;

function tail(text: string): string {
  const lines = text.trimEnd().split("\n");
  return lines.slice(-PM_OUTPUT_TAIL_LINES).join("\n");
}

/**
 * Runs `command` found on the context's PATH. Not found or a non-zero exit is UpgradeError
 * `execution_failed` carrying the end of its output.
 */
export async function runPackageManager(
  ctx: Pick<TrackerContext, "env" | "log" | "cwd">,
  command: readonly string[],
): Promise<PmResult> {
  const [name, ...args] = command as [string, ...string[]];
  const exe = Bun.which(name, { PATH: ctx.env.PATH ?? "" });
  if (!exe) {
    throw new UpgradeError(
      "execution_failed",
      `${name} was not found on PATH, so tracker cannot be upgraded with it.`,
      `Install ${name}, or reinstall tracker with the install script and run \`tracker upgrade\` again.`,
    );
  }
  ctx.log.info(`Running ${command.join(" ")}`);
  const env = childEnv(ctx.env);
  let proc: ReturnType<typeof Bun.spawn>;
  try {
    proc = Bun.spawn([exe, ...args], { cwd: ctx.cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  } catch (err) {
    throw new UpgradeError("execution_failed", `Could not run ${name}: ${(err as Error).message}.`);
  }
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout as ReadableStream).text(),
    new Response(proc.stderr as ReadableStream).text(),
    proc.exited,
  ]);
  if (code !== 0) {
    const output = tail(`${stdout}\n${stderr}`.trim());
    throw new UpgradeError(
      "execution_failed",
      `\`${command.join(" ")}\` failed with exit code ${code}.`,
      output ? `Its output ended with:\n${output}` : undefined,
    );
  }
  return { command: [...command], stdout, stderr };
}
