/** One HTTP exchange: fetch plus the whole (capped) body, with failures classified instead of thrown. */
import type { TrackerContext } from "../../context.ts";
import { ApiError } from "../errors.ts";
import { BodyTooLarge, MAX_RESPONSE_BYTES, readCapped } from "./body.ts";
import { classifyFetchFailure, type TransportFailure } from "./errors.ts";
import { crossOriginRedirect } from "./url.ts";
import { fetchWrite, isWriteMethod } from "./write-redirect.ts";

export type Outcome = { res: Response; text: string } | { failure: TransportFailure };

/** One HTTP exchange: fetch plus the whole body, with failures classified instead of thrown. */
export async function exchange(
  ctx: TrackerContext,
  url: string,
  init: RequestInit,
  timeoutMs: number,
  endpoint: string,
): Promise<Outcome> {
  let res: Response;
  try {
    if (isWriteMethod(init.method)) {
      const w = await fetchWrite(ctx.fetch, url, init, endpoint);
      if ("stop" in w) return { failure: { error: w.stop, retryable: false } };
      res = w.res;
    } else res = await ctx.fetch(url, init);
  } catch (err) {
    return { failure: classifyFetchFailure(err, url, timeoutMs) };
  }
  const moved = res.redirected ? crossOriginRedirect(url, res.url) : undefined;
  if (moved) {
    await res.body?.cancel().catch(() => undefined);
    return { failure: { error: moved, retryable: false } };
  }
  try {
    return { res, text: await readCapped(res) };
  } catch (err) {
    if (err instanceof BodyTooLarge) {
      return {
        failure: {
          error: new ApiError({
            status: res.status,
            endpoint,
            message: `Response from ${endpoint} is larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB; tracker stopped reading it`,
            hint: "Ask for less (a smaller --limit, a narrower --query), or check TRACKER_URL.",
          }),
          retryable: false,
        },
      };
    }
    const failure = classifyFetchFailure(err, url, timeoutMs);
    // A timeout while reading stays a timeout (final); anything else means the transfer broke.
    if (!failure.retryable) return { failure };
    // Status and headers arrived but the body did not: a dropped connection or a truncated transfer.
    return {
      failure: {
        error: new ApiError({
          status: res.status,
          endpoint,
          message: `Incomplete response from ${endpoint}: the connection closed before the body was complete`,
          hint: "Retry the command; if it keeps happening, check proxies between you and the service.",
        }),
        retryable: true,
      },
    };
  }
}
