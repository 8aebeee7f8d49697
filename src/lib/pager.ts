/**
 * The pager for long lists on a terminal: TRACKER_PAGER, then PAGER, else `less -FRX` when it is
 * installed (quits when the text fits, keeps colours, leaves the text on screen). An empty
 * TRACKER_PAGER or PAGER turns paging off. The command is split on spaces and started directly,
 * never through a shell, with tracker's secrets removed from its environment.
 */
import type { TrackerContext } from "../context.ts";
import { canAnimate } from "./automation.ts";
import { childEnv } from "./child-env.ts";
import { sanitizeTerminal, withoutSecrets } from "./sanitize.ts";

/** The pager's argv for this run, or undefined for none (stdout piped, paging off, nothing installed). */
export function pagerCommand(ctx: TrackerContext): string[] | undefined {
  if (!ctx.isStdoutTTY || !canAnimate(ctx)) return undefined;
  const chosen = ctx.env.TRACKER_PAGER ?? ctx.env.PAGER;
  const argv = chosen !== undefined ? chosen.trim().split(/\s+/).filter(Boolean) : ["less", "-FRX"];
  return argv.length > 0 ? argv : undefined;
}

/**
 * Shows text through the pager and waits for it to end. False when no pager applies or it could
 * not be started (the caller then writes the text itself); a pager quit early (`q`) is success.
 */
export async function page(ctx: TrackerContext, text: string): Promise<boolean> {
  const argv = pagerCommand(ctx);
  const exe = argv?.[0] && Bun.which(argv[0], { PATH: ctx.env.PATH ?? "" });
  if (!argv || !exe) {
    if (argv) ctx.log.debug(`Pager ${argv[0]} not found; printing directly`);
    return false;
  }
  try {
    const child = Bun.spawn([exe, ...argv.slice(1)], {
      // The one way server text reaches the terminal without ctx.stdout: sanitised here. Handed
      // over as a whole, Bun feeds it and stops quietly when the pager quits early (q).
      stdin: new Blob([sanitizeTerminal(withoutSecrets(text, ctx.secrets ?? []), ctx.color)]),
      stdout: "inherit",
      stderr: "inherit",
      env: childEnv(ctx.env),
    });
    // Ctrl-C belongs to the pager (less uses it); tracker waits for it instead of ending and
    // leaving it to fight the shell for the terminal, as git and gh do.
    const ignore = () => undefined;
    process.on("SIGINT", ignore);
    try {
      await child.exited;
    } finally {
      process.off("SIGINT", ignore);
    }
    return true;
  } catch (err) {
    ctx.log.debug(`Pager ${argv[0]} could not start: ${(err as Error).message}`);
    return false;
  }
}
