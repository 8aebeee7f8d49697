/**
 * Pacing by Sentry's rate-limit headers, before a 429 happens (API.md §9.3, §19.3). Limits are per
 * caller and endpoint in a fixed window: `X-Sentry-Rate-Limit-Remaining: 0` with
 * `X-Sentry-Rate-Limit-Reset` (an absolute time, epoch seconds) means the next request to that
 * endpoint waits until the reset; `X-Sentry-Rate-Limit-ConcurrentRemaining: 0` means no more
 * requests to it at the same time, so the run sends them one by one from then on. The state is the
 * run's (ctx.rateLimits), shared by fan-outs and paginations alike.
 */
import type { TrackerContext } from "../../context.ts";

/** The longest pacing wait (a reset further away is the 429's business: the retry rules report it). */
export const MAX_PACING_WAIT_MS = 60_000;

type EndpointPace = NonNullable<TrackerContext["rateLimits"]> extends Map<string, infer P> ? P : never;

/** The run's pacing state (a context built without one paces nothing beyond this call). */
function paces(ctx: TrackerContext): Map<string, EndpointPace> {
  return ctx.rateLimits ?? new Map();
}

/** The endpoint a limit applies to: the method and the path without its query. */
export function paceKey(method: string, url: string): string {
  return `${method} ${URL.parse(url)?.pathname ?? url}`;
}

/**
 * Waits until a request to `key` may go, and returns the function to call when its answer has
 * arrived (it records the headers and lets the next serial request go).
 */
export async function paced(ctx: TrackerContext, key: string): Promise<(headers?: Headers) => void> {
  const map = paces(ctx);
  const pace = map.get(key);
  let release: () => void = () => undefined;
  if (pace?.serial) {
    const before = pace.serial;
    pace.serial = new Promise<void>((resolve) => {
      release = resolve;
    });
    await before;
  }
  const wait = (pace?.until ?? 0) - ctx.now();
  if (pace && wait > 0) await waitForReset(ctx, key, pace, wait);
  return (headers) => {
    if (headers) note(ctx, key, headers);
    release();
  };
}

const seconds = (ms: number) => `${Math.ceil(ms / 1000).toLocaleString("en-US")} s`;

/**
 * Waits for a limit's reset, saying so on stderr (once per reset, not per request). A reset beyond
 * MAX_PACING_WAIT_MS is waited for once per endpoint (requests already waiting share that wait);
 * after it requests go at once, and a refusal (429) ends the run with the service's message
 * instead of another silent minute per request.
 */
async function waitForReset(
  ctx: TrackerContext,
  key: string,
  pace: EndpointPace,
  wait: number,
): Promise<void> {
  if (pace.longWait) return pace.longWait;
  const long = wait > MAX_PACING_WAIT_MS;
  if (pace.saidUntil !== pace.until) {
    pace.saidUntil = pace.until;
    ctx.log.info(
      long
        ? `The service's rate limit for ${key} resets in ${seconds(wait)}; waiting ${seconds(MAX_PACING_WAIT_MS)} once, then trying again.`
        : `The service's rate limit for ${key} is reached; waiting ${seconds(wait)} for its reset.`,
    );
  }
  const slept = ctx.sleep(Math.min(wait, MAX_PACING_WAIT_MS));
  if (long) pace.longWait = slept;
  await slept;
}

function intHeader(headers: Headers, name: string): number | undefined {
  const raw = headers.get(name);
  if (raw === null || !/^\s*\d+(\.\d+)?\s*$/.test(raw)) return undefined;
  return Number(raw);
}

/** Records what an answer's rate-limit headers say about the next request to `key`. */
function note(ctx: TrackerContext, key: string, headers: Headers): void {
  const map = paces(ctx);
  const pace = map.get(key) ?? { until: 0 };
  const remaining = intHeader(headers, "x-sentry-rate-limit-remaining");
  const reset = intHeader(headers, "x-sentry-rate-limit-reset");
  if (remaining !== undefined && remaining <= 0 && reset !== undefined) {
    pace.until = Math.max(pace.until, reset * 1000);
  }
  if (intHeader(headers, "x-sentry-rate-limit-concurrentremaining") === 0 && !pace.serial) {
    pace.serial = Promise.resolve();
  }
  map.set(key, pace);
}
