/**
 * `--wait` after an upload: polling the assemble endpoint until the service has processed the
 * bundle. The service names its own `maxWait` (seconds) in the chunk-upload options; a huge one
 * (or a bundle stuck in `assembling`) would poll for ever, so the wait is capped at
 * MAX_ASSEMBLE_WAIT_MS, and a person sees on stderr that tracker is still waiting.
 */
import type { TrackerContext } from "../../context.ts";
import type { AssembleResponse } from "../api/artifacts.ts";
import { MAX_WAIT_MS, maxWaitMs as cappedWaitMs, POLL_INTERVAL_MS } from "../chunks/wait.ts";

/** How often the progress line is repeated while waiting. */
const PROGRESS_EVERY_MS = 10_000;

/** The wait for a service `maxWait` in seconds (absent, zero or not a number: the default), capped. */
export const assembleWaitMs = cappedWaitMs;
export { DEFAULT_MAX_WAIT_MS, MAX_ASSEMBLE_WAIT_MS, POLL_INTERVAL_MS } from "../chunks/wait.ts";

const pending = (a: AssembleResponse) => a.state === "created" || a.state === "assembling";
const minutes = (ms: number) => `${Math.round(ms / 60_000)} min`;

/**
 * Polls (`poll`) until ok or error, or until `maxWaitMs` (use assembleWaitMs) has passed: then the
 * last state is returned and stderr says tracker stopped waiting. Progress goes to stderr every
 * PROGRESS_EVERY_MS.
 */
export async function waitForAssembly(
  ctx: TrackerContext,
  first: AssembleResponse,
  poll: () => Promise<AssembleResponse>,
  maxWaitMs: number,
): Promise<AssembleResponse> {
  let a = first;
  const started = ctx.now();
  const until = started + Math.min(maxWaitMs, MAX_WAIT_MS);
  let said = started;
  if (pending(a))
    ctx.log.info(`Waiting for the service to process the bundle (at most ${minutes(until - started)})…`);
  while (pending(a) && ctx.now() < until) {
    await ctx.sleep(POLL_INTERVAL_MS);
    a = await poll();
    if (pending(a) && ctx.now() < until && ctx.now() - said >= PROGRESS_EVERY_MS) {
      said = ctx.now();
      ctx.log.info(`Still ${a.state} after ${Math.round((said - started) / 1000)} s…`);
    }
  }
  if (pending(a)) {
    ctx.log.warn(
      `Stopped waiting after ${minutes(ctx.now() - started)}: the service is still processing the bundle (${a.state}).`,
    );
  }
  return a;
}
