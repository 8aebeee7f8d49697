import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { getAuthToken, refreshAfterUnauthorized, type AuthToken } from "../auth/token.ts";
import { ApiError, AuthError, type CliError, NetworkError, ValidationError } from "../errors.ts";
import { VERSION } from "../version.ts";
import { nextCursorFromLink } from "./link.ts";
import { fetchOptionsFor } from "./transport.ts";

/** Per-request timeout of ordinary API calls. */
export const REQUEST_TIMEOUT_MS = 30_000;
/** Attempts for idempotent requests (1 + 2 retries). */
export const MAX_ATTEMPTS = 3;
/** First backoff step; doubles per retry, capped by MAX_BACKOFF_MS. */
export const BASE_BACKOFF_MS = 1_000;
/** Cap of one backoff wait. */
export const MAX_BACKOFF_MS = 10_000;
/** Cap of a server-requested wait (Retry-After or rate-limit reset). */
export const MAX_SERVER_WAIT_MS = 60_000;

const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/** Where a request goes: the control host, an organization's region, or an absolute base URL. */
export type Host = "control" | { org: string } | { baseUrl: string };

/** Query parameter values; arrays repeat the key. */
export type QueryValue = string | number | boolean | undefined | null | readonly (string | number)[];

/** Options of one API request. */
export interface RequestOptions<T> {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  /** Path below the host, e.g. `/api/0/organizations/`; must end with a slash. */
  path: string;
  host?: Host;
  query?: Record<string, QueryValue>;
  json?: unknown;
  form?: Record<string, string>;
  /** Send the bearer token (default true). */
  auth?: boolean;
  timeoutMs?: number;
  /** Retry on 408/429/5xx/connection errors; default: true for GET. */
  retry?: boolean;
  schema: v.GenericSchema<unknown, T>;
  /** Statuses returned as data instead of thrown (e.g. OAuth's 400 polls). */
  acceptStatuses?: readonly number[];
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

/** Builds a URL from base, path and query (arrays repeat the key; undefined values are skipped). */
export function buildUrl(base: string, path: string, query?: Record<string, QueryValue>): string {
  const url = new URL(base.replace(/\/+$/, "") + path);
  for (const [k, val] of Object.entries(query ?? {})) {
    if (val === undefined || val === null) continue;
    if (Array.isArray(val)) for (const item of val) url.searchParams.append(k, String(item));
    else url.searchParams.append(k, String(val));
  }
  return url.toString();
}

/**
 * True when a server-provided region URL may receive the token: same scheme and hostname as the
 * base URL (any port), or an https sentry.io host when the base is hosted Sentry.
 */
export function isTrustedRegionUrl(baseUrl: string, regionUrl: string): boolean {
  try {
    const base = new URL(baseUrl);
    const region = new URL(regionUrl);
    const hosted = base.hostname === "sentry.io" || base.hostname.endsWith(".sentry.io");
    if (hosted) {
      return (
        region.protocol === "https:" &&
        (region.hostname === "sentry.io" || region.hostname.endsWith(".sentry.io"))
      );
    }
    return region.protocol === base.protocol && region.hostname === base.hostname;
  } catch {
    return false;
  }
}

/** Extracts the detail line of an error body (Sentry §9.1 shapes). */
export function errorDetail(body: string): string | undefined {
  const text = body.trim();
  if (!text) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const stripped = text.startsWith("<")
      ? text
          .replace(/<[^>]*>/g, " ")
          .replace(/\s+/g, " ")
          .trim()
      : text;
    return stripped.length > 200 ? `${stripped.slice(0, 200)}…` : stripped || undefined;
  }
  if (typeof parsed === "string") return parsed;
  if (parsed && typeof parsed === "object") {
    const o = parsed as Record<string, unknown>;
    if (typeof o.detail === "string") return o.detail;
    if (o.detail && typeof o.detail === "object") {
      const d = o.detail as Record<string, unknown>;
      const msg = typeof d.message === "string" ? d.message : JSON.stringify(d);
      return typeof d.code === "string" ? `${msg} (${d.code})` : msg;
    }
    if (typeof o.error === "string") {
      return typeof o.error_description === "string" ? `${o.error}: ${o.error_description}` : o.error;
    }
  }
  return JSON.stringify(parsed);
}

/** Scope hint shown on 403 (spec section 5). */
export const SCOPE_HINT =
  "The token may lack the needed scopes: org:read, project:read, event:read (and event:write to change issues or start AI analysis). A user token or a broader org token fixes this.";

/** Hint shown on 404. */
export const NOT_FOUND_HINT =
  "The resource does not exist or is not visible to this token. Slugs are case-sensitive.";

function waitFromHeaders(headers: Headers, now: number): number | undefined {
  const ra = headers.get("retry-after");
  if (ra) {
    const secs = Number(ra);
    if (Number.isFinite(secs) && secs >= 0) return secs * 1000;
    const date = Date.parse(ra);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  const reset = headers.get("x-sentry-rate-limit-reset");
  if (reset) {
    const at = Number(reset) * 1000;
    if (Number.isFinite(at) && at > now) return at - now;
  }
  return undefined;
}

/** The wait before retry number `attempt` (1-based): server-requested if given, else backoff with jitter. */
export function retryDelayMs(
  attempt: number,
  headers: Headers | undefined,
  now: number,
  random = Math.random,
): number {
  const server = headers ? waitFromHeaders(headers, now) : undefined;
  if (server !== undefined) return Math.min(server, MAX_SERVER_WAIT_MS);
  const base = Math.min(BASE_BACKOFF_MS * 2 ** (attempt - 1), MAX_BACKOFF_MS);
  return Math.round(base / 2 + random() * (base / 2));
}

const TLS_RE = /certificate|CERT_|SSL|TLS|self.signed|UNABLE_TO_VERIFY/i;

function describeFetchFailure(err: unknown, url: string, timeoutMs: number): CliError {
  const e = err as { name?: string; code?: string; message?: string };
  const host = new URL(url).host;
  if (e?.name === "TimeoutError" || e?.name === "AbortError") {
    return new NetworkError(
      `Request to ${host} timed out after ${Math.round(timeoutMs / 1000)} s.`,
      "Check the network and retry.",
    );
  }
  const text = `${e?.code ?? ""} ${e?.message ?? String(err)}`;
  if (TLS_RE.test(text)) {
    return new NetworkError(
      `TLS verification failed for ${host}: ${e?.message ?? e?.code}`,
      "If your network uses a private certificate authority, point NODE_EXTRA_CA_CERTS (or SSL_CERT_FILE) at its PEM bundle.",
    );
  }
  return new NetworkError(
    `Could not connect to ${host}: ${e?.message ?? String(err)}`,
    "Check your network, proxy settings (HTTPS_PROXY, NO_PROXY) and TRACKER_URL.",
  );
}

function isTlsFailure(err: CliError): boolean {
  return err instanceof NetworkError && err.message.startsWith("TLS verification failed");
}

function formatHeaders(headers: Headers | Record<string, string>): string {
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  return entries
    .map(([k, val]) => {
      const masked = /^(authorization|cookie|set-cookie|proxy-authorization)$/i.test(k) ? "[REDACTED]" : val;
      return `    ${k}: ${masked}`;
    })
    .join("\n");
}

/** Resolves the base URL a request goes to. */
export async function baseUrlFor(ctx: TrackerContext, host: Host | undefined): Promise<string> {
  if (!host || host === "control") return ctx.settings.baseUrl;
  if ("baseUrl" in host) return host.baseUrl;
  const { regionUrlForOrg } = await import("./region.ts");
  return regionUrlForOrg(ctx, host.org);
}

/** Sends one API request with auth, timeout, retries, trace logging, and response validation. */
export async function apiRequest<T>(ctx: TrackerContext, opts: RequestOptions<T>): Promise<ApiResponse<T>> {
  const method = opts.method ?? "GET";
  const base = await baseUrlFor(ctx, opts.host);
  const url = buildUrl(base, opts.path, opts.query);
  const timeoutMs = opts.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const canRetry = opts.retry ?? method === "GET";
  let token: AuthToken | undefined = opts.auth === false ? undefined : await getAuthToken(ctx);
  let refreshed = false;

  for (let attempt = 1; ; attempt++) {
    const headers: Record<string, string> = { "User-Agent": userAgent(), Accept: "application/json" };
    if (token) headers.Authorization = `Bearer ${token.token}`;
    let body: string | undefined;
    if (opts.json !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(opts.json);
    } else if (opts.form) {
      headers["Content-Type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(opts.form).toString();
    }
    const started = performance.now();
    if (ctx.log.enabled("trace")) ctx.log.trace(`→ ${method} ${url}\n${formatHeaders(headers)}`);
    let res: Response;
    try {
      res = await ctx.fetch(url, {
        method,
        headers,
        body,
        signal: AbortSignal.timeout(timeoutMs),
        redirect: "follow",
        ...fetchOptionsFor(ctx, url),
      } as RequestInit);
    } catch (err) {
      const failure = describeFetchFailure(err, url, timeoutMs);
      ctx.log.debug(`${method} ${url} failed: ${failure.message}`);
      if (canRetry && attempt < MAX_ATTEMPTS && !isTlsFailure(failure)) {
        await ctx.sleep(retryDelayMs(attempt, undefined, ctx.now()));
        continue;
      }
      throw failure;
    }
    const text = await res.text().catch(() => "");
    if (ctx.log.enabled("trace")) {
      ctx.log.trace(
        `← ${res.status} ${method} ${url} (${Math.round(performance.now() - started)} ms)\n${formatHeaders(res.headers)}`,
      );
    }
    const accepted = opts.acceptStatuses?.includes(res.status) ?? false;
    if (!res.ok && !accepted) {
      if (canRetry && RETRY_STATUSES.has(res.status) && attempt < MAX_ATTEMPTS) {
        const wait = retryDelayMs(attempt, res.headers, ctx.now());
        ctx.log.debug(
          `${res.status} from ${url}; retrying in ${wait} ms (attempt ${attempt + 1}/${MAX_ATTEMPTS})`,
        );
        await ctx.sleep(wait);
        continue;
      }
      if (res.status === 401 && token && !refreshed) {
        const next = await refreshAfterUnauthorized(ctx, token);
        if (next) {
          token = next;
          refreshed = true;
          attempt--;
          continue;
        }
      }
      throw errorForStatus(res.status, text, `${method} ${opts.path}`, token);
    }
    const data = parseBody(text, opts.schema, `${method} ${opts.path}`, res.status);
    return {
      data,
      status: res.status,
      headers: res.headers,
      nextCursor: nextCursorFromLink(res.headers.get("link")),
      url,
    };
  }
}

/** The User-Agent every request carries. */
export function userAgent(): string {
  return `tracker/${VERSION} (${process.platform}-${process.arch}) bun/${Bun.version}`;
}

function parseBody<T>(
  text: string,
  schema: v.GenericSchema<unknown, T>,
  endpoint: string,
  status: number,
): T {
  let json: unknown;
  try {
    json = text.trim() === "" ? null : JSON.parse(text);
  } catch {
    throw new ApiError({
      status,
      endpoint,
      message: `Unexpected response from ${endpoint}: not JSON`,
      detail: errorDetail(text),
      hint: "Check that TRACKER_URL points at the service's address.",
    });
  }
  const r = v.safeParse(schema, json);
  if (r.success) return r.output;
  const issue = r.issues[0];
  const path = issue ? v.getDotPath(issue) : undefined;
  throw new ApiError({
    status,
    endpoint,
    message: `Unexpected response from ${endpoint}`,
    detail: `${path ? `${path}: ` : ""}${issue?.message ?? "invalid shape"}`,
  });
}

/** Maps a non-success status to the right error class (auth, validation, API). */
export function errorForStatus(status: number, body: string, endpoint: string, token?: AuthToken): CliError {
  const detail = errorDetail(body);
  if (status === 401) {
    if (detail && /limited to organization endpoints|Unauthorized organization access/i.test(detail)) {
      return new AuthError("invalid", `The token is bound to another organization: ${detail}`);
    }
    if (token?.source === "stored" && detail && /expired/i.test(detail)) return new AuthError("expired");
    const where = token
      ? ` (token from ${token.source === "stored" ? "stored credentials" : token.source})`
      : "";
    return new AuthError("invalid", `Authentication failed${where}: ${detail ?? "token rejected"}`);
  }
  if (status === 400 && detail && /search query|Invalid query|parse/i.test(detail)) {
    return new ValidationError(`Invalid search query: ${detail}`, "query");
  }
  const hint = status === 403 ? SCOPE_HINT : status === 404 ? NOT_FOUND_HINT : undefined;
  return new ApiError({ status, detail, endpoint, hint });
}
