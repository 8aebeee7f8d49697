/** Waiting for the service to process what was assembled (`--wait`), shared by every upload. */
import type { TrackerContext } from "../../context.ts";

/** Milliseconds between assemble polls (legacy sentry-cli's interval). */
export const POLL_INTERVAL_MS = 1_000;
/** Longest wait for ok/error when the server names no `maxWait` (legacy sentry-cli's default). */
export const DEFAULT_MAX_WAIT_MS = 300_000;
/** Longest wait whatever the server names (a huge `maxWait` must not poll for ever): 10 minutes. */
export const MAX_WAIT_MS = 600_000;
/** The same cap under the name the source-map upload uses. */
export const MAX_ASSEMBLE_WAIT_MS = MAX_WAIT_MS;

/**
 * The wait cap: the server's `maxWait` (seconds) when it names a usable one, else
 * DEFAULT_MAX_WAIT_MS; never more than MAX_WAIT_MS.
 */
export function maxWaitMs(serverMaxWaitSeconds: number | undefined): number {
  const named =
    serverMaxWaitSeconds && Number.isFinite(serverMaxWaitSeconds) && serverMaxWaitSeconds > 0
      ? serverMaxWaitSeconds * 1000
      : 0;
  return Math.min(named || DEFAULT_MAX_WAIT_MS, MAX_WAIT_MS);
}

/**
 * Asks again every POLL_INTERVAL_MS while `pending(answer)`, at most `capMs` in all; returns the
 * last answer (still pending when the cap ran out). `onPoll` hears each wait (progress lines).
 */
export async function pollWhile<T>(
  ctx: TrackerContext,
  first: T,
  ask: () => Promise<T>,
  pending: (answer: T) => boolean,
  capMs: number,
  onPoll?: (answer: T, waitedMs: number) => void,
): Promise<T> {
  let a = first;
  const started = ctx.now();
  while (pending(a) && ctx.now() - started < capMs) {
    onPoll?.(a, ctx.now() - started);
    await ctx.sleep(POLL_INTERVAL_MS);
    a = await ask();
  }
  return a;
}
