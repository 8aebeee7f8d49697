/**
 * The retry policy of idempotent requests: which answers are worth another attempt, how long to
 * wait (the server's Retry-After / rate-limit reset, else jittered exponential backoff) and how
 * many attempts a request chain gets.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** Attempts for idempotent requests (1 + 2 retries). */
export const MAX_ATTEMPTS = 3;

/** First backoff step; doubles per retry, capped by MAX_BACKOFF_MS. */
export const BASE_BACKOFF_MS = 1_000;

/** Cap of one backoff wait. */
export const MAX_BACKOFF_MS = 10_000;

/** Cap of a server-requested wait (Retry-After or rate-limit reset). */
export const MAX_SERVER_WAIT_MS = 60_000;

/** Statuses worth another attempt of an idempotent request. */
export const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/**
 * The wait the server asks for, in ms: `Retry-After` (seconds or HTTP-date) first, else
 * `X-Sentry-Rate-Limit-Reset` (Unix seconds) when it lies in the future.
 */
export function serverWaitMs(headers: Headers, now: number): number | undefined {
  const ra = headers.get("retry-after")?.trim();
  if (ra) {
    if (/^\d+(\.\d+)?$/.test(ra)) return Math.ceil(Number(ra) * 1000);
    const date = Date.parse(ra);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  const reset = headers.get("x-sentry-rate-limit-reset")?.trim();
  if (reset && /^\d+(\.\d+)?$/.test(reset)) {
    const at = Number(reset) * 1000;
    if (at > now) return Math.ceil(at - now);
  }
  return undefined;
}

/** Exponential backoff before retry number `attempt` (1-based), capped, with jitter in [base/2, base]. */
export function backoffMs(attempt: number, random = Math.random): number {
  const base = Math.min(BASE_BACKOFF_MS * 2 ** (attempt - 1), MAX_BACKOFF_MS);
  return Math.round(base / 2 + random() * (base / 2));
}

/** The retries left to one request chain: a request and every request made on its behalf. */
export interface RetryBudget {
  retriesLeft: number;
  /** When the chain must be over (ctx.now() time), set by its first request; no retry may pass it. */
  deadlineAt?: number;
}

/**
 * How long a request chain may take in all, retries and waits included: two of its first
 * request's timeouts plus one longest server-requested wait (120 s for ordinary calls, where
 * three timed-out attempts and two capped waits could otherwise take 210 s).
 */
export function chainDeadlineMs(timeoutMs: number): number {
  return 2 * timeoutMs + MAX_SERVER_WAIT_MS;
}

const chains = new AsyncLocalStorage<RetryBudget>();

/**
 * Runs `fn` as part of the current request chain, or starts one with MAX_ATTEMPTS − 1 retries. A
 * request made while another is being prepared (the region lookup of an organization's request, a
 * token refresh) shares that request's budget, so a storm of 5xx answers or a refused connection
 * costs one retry series, not one per layer.
 */
export function inRequestChain<T>(fn: (budget: RetryBudget) => Promise<T>): Promise<T> {
  const current = chains.getStore();
  if (current) return fn(current);
  const budget: RetryBudget = { retriesLeft: MAX_ATTEMPTS - 1 };
  return chains.run(budget, () => fn(budget));
}
