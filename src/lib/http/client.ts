import type * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import type { AuthToken } from "../auth/token.ts";
import { ApiError } from "../errors.ts";
import { VERSION } from "../version.ts";
import { nextCursorFromLink } from "./link.ts";
import { errorForStatus } from "./errors.ts";
import {
  backoffMs,
  chainDeadlineMs,
  inRequestChain,
  MAX_ATTEMPTS,
  MAX_SERVER_WAIT_MS,
  RETRY_STATUSES,
  type RetryBudget,
  serverWaitMs,
} from "./retry.ts";
import { customHeadersFor } from "./custom-headers.ts";
import { formatHeaders, redactUrl } from "./trace-log.ts";
import { fetchOptionsFor } from "./transport.ts";
import { exchange } from "./exchange.ts";
import { parseBody } from "./validate.ts";
import { paced, paceKey } from "./pacing.ts";
import { baseUrlFor, buildUrl, type Host, type QueryValue } from "./url.ts";

export { MAX_RESPONSE_BYTES } from "./body.ts";
export { baseUrlFor, buildUrl, type Host, isTrustedRegionUrl, type QueryValue } from "./url.ts";

/** Per-request timeout of ordinary API calls. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** Options of one API request. */
export interface RequestOptions<T> {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  /** Path below the host, e.g. `/api/0/organizations/`; must end with a slash. */
  path: string;
  host?: Host;
  query?: Record<string, QueryValue>;
  json?: unknown;
  form?: Record<string, string>;
  /** A body sent as is (`tracker api --input`). */
  rawBody?: string;
  /** Extra request headers (never Authorization: the token comes from ctx.tokens). */
  headers?: Record<string, string>;
  /** Send the bearer token (default true). */
  auth?: boolean;
  timeoutMs?: number;
  /**
   * Retry on 408/429/5xx/connection errors; default: true for GET. `"unsent"` (for writes): only
   * when the server cannot have acted on it, i.e. no connection was made, or 429 with Retry-After.
   */
  retry?: boolean | "unsent";
  schema: v.GenericSchema<unknown, T>;
  /** Statuses returned as data instead of thrown (e.g. OAuth's 400 polls). */
  acceptStatuses?: readonly number[];
  /** Deepest JSON nesting accepted (default MAX_RESPONSE_DEPTH, lib/http/depth.ts). */
  maxDepth?: number;
}

/** A validated response. */
export interface ApiResponse<T> {
  data: T;
  status: number;
  headers: Headers;
  /** Cursor of the next page (Link header, `results="true"` only). */
  nextCursor: string | undefined;
  url: string;
}

/** A successful response whose body has arrived but is not parsed yet. */
export interface DeferredResponse<T> {
  status: number;
  headers: Headers;
  /** Cursor of the next page (Link header, `results="true"` only). */
  nextCursor: string | undefined;
  url: string;
  /** The body as received (for `tracker api`, which prints it as the server sent it). */
  text: string;
  /** JSON-parses and validates the body; throws the same ApiError apiRequest would. */
  parse(): T;
}

/**
 * Sends one API request: bearer token, User-Agent, timeout, proxy/CA options, retries of
 * idempotent requests (408/429/5xx and connection errors, at most MAX_ATTEMPTS, honouring
 * Retry-After and the rate-limit reset), one token refresh on 401, trace logging with redaction,
 * error mapping and valibot validation of the body.
 */
export async function apiRequest<T>(ctx: TrackerContext, opts: RequestOptions<T>): Promise<ApiResponse<T>> {
  const r = await apiRequestDeferred(ctx, opts);
  return { data: r.parse(), status: r.status, headers: r.headers, nextCursor: r.nextCursor, url: r.url };
}

/**
 * apiRequest without the body parse: a paginator reads the next cursor from the headers, sends
 * the next request, and parses this page while the server works on that one.
 */
export function apiRequestDeferred<T>(
  ctx: TrackerContext,
  opts: RequestOptions<T>,
): Promise<DeferredResponse<T>> {
  return inRequestChain(async (budget) => {
    try {
      return await sendWithRetries(ctx, opts, budget);
    } catch (err) {
      return await viaServiceUrl(ctx, opts, budget, err);
    }
  });
}

/**
 * A 404 from an organization's region may mean the cached region is stale (the organization
 * moved): the request is asked once more of the service's own URL, which routes org-scoped calls
 * to the right region, while the region is looked up afresh (one extra round trip in all). When
 * the service's URL answers, its answer is used; when it does not, the first error stands.
 */
async function viaServiceUrl<T>(
  ctx: TrackerContext,
  opts: RequestOptions<T>,
  budget: RetryBudget,
  err: unknown,
): Promise<DeferredResponse<T>> {
  const host = opts.host;
  if (!(err instanceof ApiError && err.status === 404) || !host || host === "control" || !("org" in host))
    throw err;
  const base = ctx.settings.baseUrl;
  // A region the service named in this very run is not stale: the 404 is the answer.
  if (ctx.said.has(`region-learned:${host.org}`) || (await baseUrlFor(ctx, host)) === base) throw err;
  ctx.log.debug(
    `The cached region of ${host.org} answered 404; asking ${base} and looking the region up again`,
  );
  await ctx.regions.forget(ctx, host.org);
  const [answer] = await Promise.allSettled([
    sendWithRetries(ctx, { ...opts, host: { baseUrl: base } }, budget),
    ctx.regions.urlForOrg(ctx, host.org),
  ]);
  if (answer.status === "rejected") throw err;
  return answer.value;
}

async function sendWithRetries<T>(
  ctx: TrackerContext,
  opts: RequestOptions<T>,
  budget: RetryBudget,
): Promise<DeferredResponse<T>> {
  const method = opts.method ?? "GET";
  budget.deadlineAt ??= ctx.now() + chainDeadlineMs(opts.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const deadlineAt = budget.deadlineAt;
  /** A retry after `wait` ms is allowed only when the chain's deadline leaves it room to run. */
  const mayRetry = (wait: number) => budget.retriesLeft > 0 && ctx.now() + wait < deadlineAt;
  const base = await baseUrlFor(ctx, opts.host);
  const url = buildUrl(base, opts.path, opts.query);
  const endpoint = `${method} ${opts.path}`;
  const timeoutMs = opts.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const policy = opts.retry ?? method === "GET";
  let token: AuthToken | undefined = opts.auth === false ? undefined : await ctx.tokens.current(ctx);
  let refreshed = false;
  // Resolved once: a bad CA bundle path is a ConfigError before anything is sent.
  const transport = fetchOptionsFor(ctx, url);
  const custom = customHeadersFor(ctx.env, ctx.settings.baseUrl, url);
  const hasCustom = Object.keys(custom).length > 0;
  // Access-proxy headers are credentials: masked in the trace log and in errors like the token.
  for (const v of Object.values(custom)) if (v.length >= 8) ctx.log.addSecret(v);

  for (let attempt = 1; ; attempt++) {
    const headers: Record<string, string> = {
      ...custom,
      ...opts.headers,
      "User-Agent": userAgent(),
      Accept: opts.headers?.Accept ?? "application/json",
    };
    if (token) headers.Authorization = `Bearer ${token.token}`;
    let body: string | undefined;
    if (opts.json !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(opts.json);
    } else if (opts.rawBody !== undefined) {
      headers["Content-Type"] = opts.headers?.["Content-Type"] ?? "application/json";
      body = opts.rawBody;
    } else if (opts.form) {
      headers["Content-Type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(opts.form).toString();
    }
    const tag = attempt > 1 ? ` (attempt ${attempt}/${MAX_ATTEMPTS})` : "";
    if (ctx.log.enabled("trace")) {
      const via = typeof transport.proxy === "string" ? ` via proxy ${redactUrl(transport.proxy)}` : "";
      ctx.log.trace(`→ ${method} ${url}${via}${tag}\n${formatHeaders(headers)}`);
    }
    // Paced by the rate-limit headers of earlier answers (this run's), before a 429 happens.
    const done = await paced(ctx, paceKey(method, url));
    const started = performance.now();
    // A late attempt of a chain gets what is left of its deadline (at least a second, or timeoutMs if shorter).
    const attemptMs = Math.max(Math.min(1_000, timeoutMs), Math.min(timeoutMs, deadlineAt - ctx.now()));
    const outcome = await exchange(
      ctx,
      url,
      {
        method,
        headers,
        body,
        signal: AbortSignal.timeout(attemptMs),
        // A redirect would carry the custom headers to wherever it points.
        redirect: hasCustom ? "error" : "follow",
        // Bun's fetch silently resends a PUT (not a POST) whose kept-alive connection was reset
        // after sending: a change must reach the server at most once, so writes use a fresh one.
        ...(method === "GET" ? {} : { keepalive: false }),
        ...transport,
      } as RequestInit,
      attemptMs,
      endpoint,
    );
    const ms = Math.round(performance.now() - started);
    done("failure" in outcome ? undefined : outcome.res.headers);

    if ("failure" in outcome) {
      const { error, retryable, unsent } = outcome.failure;
      ctx.log.trace(`✗ ${method} ${url} failed after ${ms} ms: ${error.message}`);
      const again = policy === "unsent" ? retryable && unsent === true : policy && retryable;
      const wait = backoffMs(attempt);
      if (again && mayRetry(wait)) {
        budget.retriesLeft--;
        ctx.log.debug(`${error.message}; retrying in ${wait} ms (attempt ${attempt + 1}/${MAX_ATTEMPTS})`);
        await ctx.sleep(wait);
        continue;
      }
      throw error;
    }

    const { res, text } = outcome;
    if (ctx.log.enabled("trace")) {
      ctx.log.trace(`← ${res.status} ${method} ${url} (${ms} ms)\n${formatHeaders(res.headers)}`);
    }
    const accepted = opts.acceptStatuses?.includes(res.status) ?? false;
    if (!res.ok && !accepted) {
      const requested = serverWaitMs(res.headers, ctx.now());
      const again =
        policy === "unsent"
          ? res.status === 429 && requested !== undefined
          : policy && RETRY_STATUSES.has(res.status);
      const wait = requested ?? backoffMs(attempt);
      // A wait beyond the cap would just hit the same limit again: report it instead.
      if (again && (requested === undefined || requested <= MAX_SERVER_WAIT_MS)) {
        if (mayRetry(wait)) {
          budget.retriesLeft--;
          ctx.log.debug(
            `${res.status} from ${url}; retrying in ${wait} ms (attempt ${attempt + 1}/${MAX_ATTEMPTS})`,
          );
          await ctx.sleep(wait);
          continue;
        }
      }
      if (res.status === 401 && token && !refreshed) {
        const next = await ctx.tokens.afterUnauthorized(ctx, token);
        if (next) {
          token = next;
          refreshed = true;
          attempt--;
          continue;
        }
      }
      throw errorForStatus(res.status, text, endpoint, token, res.headers, requested);
    }
    return {
      status: res.status,
      headers: res.headers,
      nextCursor: nextCursorFromLink(res.headers.get("link")),
      url,
      text,
      parse: () => parseBody(text, opts.schema, endpoint, res.status, opts.maxDepth),
    };
  }
}

/** The User-Agent every request carries: `tracker/<version> (<os>-<arch>) bun/<bun-version>` (API.md §1.5). */
export function userAgent(): string {
  const os = process.platform === "win32" ? "windows" : process.platform;
  return `tracker/${VERSION} (${os}-${process.arch}) bun/${Bun.version}`;
}
