/** After a binary swap, lets the new binary refresh the skill file and the install record. */
import type { TrackerContext } from "../../context.ts";
import { childEnv } from "../child-env.ts";

/** How long the new binary's `cli setup` may take. */
export const REFRESH_TIMEOUT_MS = 30_000;

/**
 * Runs `<binary> cli setup --no-modify-path --method curl` so the skill file matches the new
 * version. Best effort: a failure is a warning, the upgrade itself already succeeded.
 */
export async function refreshSetup(ctx: TrackerContext, binary: string): Promise<void> {
  const env = childEnv(ctx.env);
  try {
    const proc = Bun.spawn([binary, "cli", "setup", "--no-modify-path", "--method", "curl", "--json"], {
      env,
      cwd: ctx.cwd,
      stdin: "ignore",
      stdout: "ignore",
      stderr: "pipe",
    });
    const timer = setTimeout(() => proc.kill(), REFRESH_TIMEOUT_MS);
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    clearTimeout(timer);
    if (code !== 0) ctx.log.warn(`The new binary's \`cli setup\` failed (exit ${code}): ${stderr.trim()}`);
  } catch (err) {
    ctx.log.warn(`Could not run the new binary's \`cli setup\`: ${(err as Error).message}`);
  }
}
