/** One fake API per test file, with the lifecycle every suite wants. */
import { afterAll, afterEach, beforeAll, expect } from "bun:test";
import { type FakeApi, type FakeApiOptions, startFakeApi } from "../fake-api/server.ts";

/** Options of useFakeApi. */
export interface UseFakeApiOptions extends FakeApiOptions {
  /** Runs after each test's reset (e.g. restoring a route module's scenario). */
  afterReset?: (api: FakeApi) => void;
}

/**
 * Starts the fake API before the file's tests and stops it after them; after each test it fails
 * the test on any unexpected request or any injected fault no request triggered, then clears the
 * request log and pending faults.
 * Returns a handle that forwards to the running server, so tests use it like the server itself.
 */
export function useFakeApi(opts: UseFakeApiOptions = {}): FakeApi {
  let current: FakeApi | undefined;
  beforeAll(async () => {
    current = await startFakeApi(opts);
  });
  afterAll(() => current?.stop());
  afterEach(() => {
    if (!current) return;
    const unmatched = [...current.unmatched];
    const unfired = current.unfiredFaults();
    // Reset first, so one failing test does not leave its faults to the next one.
    current.reset();
    opts.afterReset?.(current);
    expect(unmatched).toEqual([]);
    expect(unfired).toEqual([]);
  });
  return new Proxy({} as FakeApi, {
    get(_target, prop) {
      if (!current) throw new Error("the fake API is used before beforeAll started it");
      const value = current[prop as keyof FakeApi];
      return typeof value === "function" ? value.bind(current) : value;
    },
  });
}
