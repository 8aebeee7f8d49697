/** Progress of the symbol uploads on a stderr that is not a terminal. */
import type { TrackerContext } from "../../context.ts";

/** Seconds between "Waiting…" lines on a stderr that is not a terminal (CI logs). */
export const WAIT_LOG_EVERY_MS = 10_000;

/**
 * The progress sink of a run whose stderr is not a terminal: only the "Waiting…" lines, at most one
 * per WAIT_LOG_EVERY_MS, as info (a five-minute wait is 30 lines of a CI log, not 300).
 */
export function waitLogger(ctx: TrackerContext): (line: string) => void {
  let last: number | undefined;
  return (line) => {
    if (!line.startsWith("Waiting")) return;
    const now = ctx.now();
    if (last !== undefined && now - last < WAIT_LOG_EVERY_MS) return;
    last = now;
    ctx.log.info(line);
  };
}
