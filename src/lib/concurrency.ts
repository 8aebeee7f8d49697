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
