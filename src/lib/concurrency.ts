/** Default cap on parallel requests in fan-outs (regions, orgs, projects). */
export const FAN_OUT_CONCURRENCY = 8;

/** Maps items through an async function with at most `limit` in flight; results keep input order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Like mapLimit, but records each failure instead of rejecting the whole fan-out. */
export async function settleLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<PromiseSettledResult<R>[]> {
  return mapLimit(items, limit, async (item, i) => {
    try {
      return { status: "fulfilled", value: await fn(item, i) } as const;
    } catch (reason) {
      return { status: "rejected", reason } as const;
    }
  });
}

/**
 * Settles `work` within `ms`: its own outcome, or a rejection with `onTimeout()` once the time is
 * up (the work itself is not cancelled; the caller merely stops waiting for it).
 */
export function withDeadline<T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

/** What firstLimit found: the first hit (if any) and the failures of the items it tried. */
export interface FirstHit<R> {
  hit?: { index: number; value: R };
  /** Failures of tried items, in the order they happened. */
  errors: unknown[];
  /** How many items were started. */
  tried: number;
}

/**
 * Tries items with at most `limit` in flight until one gives a value (not undefined); after that
 * no further item is started. Failures are collected, not thrown.
 */
export async function firstLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R | undefined>,
): Promise<FirstHit<R>> {
  const out: FirstHit<R> = { errors: [], tried: 0 };
  const worker = async () => {
    while (!out.hit && out.tried < items.length) {
      const i = out.tried++;
      try {
        const value = await fn(items[i] as T, i);
        if (value !== undefined) out.hit ??= { index: i, value };
      } catch (err) {
        out.errors.push(err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
