/**
 * `--wait` after an upload: polling the assemble endpoint until the service has processed the
 * bundle. The service names its own `maxWait` (seconds) in the chunk-upload options; a huge one
 * (or a bundle stuck in `assembling`) would poll for ever, so the wait is capped at
 * MAX_ASSEMBLE_WAIT_MS, and a person sees on stderr that tracker is still waiting.
 */
import type { TrackerContext } from "../../context.ts";
import type { AssembleResponse } from "../api/artifacts.ts";
import { MAX_WAIT_MS, maxWaitMs as cappedWaitMs, pollWhile } from "../chunk/wait.ts";

/** How often the progress line is repeated while waiting. */
const PROGRESS_EVERY_MS = 10_000;

/** The wait for a service `maxWait` in seconds (absent, zero or not a number: the default), capped. */
export const assembleWaitMs = cappedWaitMs;
export { DEFAULT_MAX_WAIT_MS, MAX_ASSEMBLE_WAIT_MS, POLL_INTERVAL_MS } from "../chunk/wait.ts";

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
  const started = ctx.now();
  const capMs = Math.min(maxWaitMs, MAX_WAIT_MS);
  if (pending(first))
    ctx.log.info(`Waiting for the service to process the bundle (at most ${minutes(capMs)})…`);
  let said = 0;
  const a = await pollWhile(ctx, first, poll, pending, capMs, (now, waitedMs) => {
    if (waitedMs - said < PROGRESS_EVERY_MS) return;
    said = waitedMs;
    ctx.log.info(`Still ${now.state} after ${Math.round(waitedMs / 1000)} s…`);
  });
  if (pending(a)) {
    ctx.log.warn(
      `Stopped waiting after ${minutes(ctx.now() - started)}: the service is still processing the bundle (${a.state}).`,
    );
  }
  return a;
}
