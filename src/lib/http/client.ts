import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import type { AuthToken } from "../auth/token.ts";
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

function htmlText(text: string): string {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
  if (title) return title;
  return text
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Extracts the detail line of an error body (API.md §9.1): `detail` (or `detail.message` with its
 * code), a bare JSON string as is, OAuth's `error`, other JSON compactly, HTML by its title, other
 * text truncated; undefined for an empty body.
 */
export function errorDetail(body: string): string | undefined {
  const text = body.trim();
  if (!text) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const plain = text.startsWith("<") ? htmlText(text) : text;
    return plain.length > 200 ? `${plain.slice(0, 200)}…` : plain || undefined;
  }
  if (typeof parsed === "string") return parsed;
  if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
    const o = parsed as Record<string, unknown>;
    // Sentry's 500s carry the id of the server-side error event; support asks for it.
    const errorId = typeof o.errorId === "string" ? ` (error id: ${o.errorId})` : "";
    if (typeof o.detail === "string") return `${o.detail}${errorId}`;
    if (o.detail && typeof o.detail === "object") {
      const d = o.detail as Record<string, unknown>;
      const msg = typeof d.message === "string" ? d.message : JSON.stringify(d);
      return typeof d.code === "string" ? `${msg} (${d.code})` : msg;
    }
    if (typeof o.error === "string") {
      return typeof o.error_description === "string" ? `${o.error}: ${o.error_description}` : o.error;
    }
  }
  const compact = JSON.stringify(parsed);
  return compact.length > 300 ? `${compact.slice(0, 300)}…` : compact;
}

/** Scope hint shown on 403 (spec section 5). */
export const SCOPE_HINT =
  "The token may lack the needed scopes: org:read, project:read, event:read (and event:write to change issues or start AI analysis). A user token or a broader org token fixes this.";

/** Hint shown on 404. */
export const NOT_FOUND_HINT =
  "The resource does not exist or is not visible to this token. Slugs are case-sensitive.";

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

/**
 * The wait before retry number `attempt` (1-based): what the server asked for (capped at
 * MAX_SERVER_WAIT_MS), else backoff with jitter.
 */
export function retryDelayMs(
  attempt: number,
  headers: Headers | undefined,
  now: number,
  random = Math.random,
): number {
  const server = headers ? serverWaitMs(headers, now) : undefined;
  if (server !== undefined) return Math.min(server, MAX_SERVER_WAIT_MS);
  return backoffMs(attempt, random);
}

/** A request that got no usable HTTP answer, and whether trying again can help. */
export interface TransportFailure {
  error: CliError;
  retryable: boolean;
}

const TLS_RE =
  /certificate|CERT_|SSL|TLS|self.signed|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|HOSTNAME_MISMATCH|ALTNAME/i;

const CONNECTION_TEXT: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "the connection was reset",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  ETIMEDOUT: "connection timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  UND_ERR_SOCKET: "the connection was closed",
};

/**
 * Classifies a failed fetch: timeouts and TLS failures are final (a retry would wait as long or
 * fail the same way), other connection failures may be retried.
 */
export function classifyFetchFailure(err: unknown, url: string, timeoutMs: number): TransportFailure {
  const e = (err ?? {}) as { name?: string; code?: string; message?: string };
  const host = new URL(url).host;
  if (e.name === "TimeoutError" || e.name === "AbortError") {
    return {
      error: new NetworkError(
        `Request to ${host} timed out after ${formatSeconds(timeoutMs)}.`,
        "Check the network and retry; the service may be overloaded.",
      ),
      retryable: false,
    };
  }
  // Bun appends advice about its own `verbose` option; it means nothing to a user of tracker.
  const message = (e.message ?? String(err)).replace(/\s*For more information, pass `verbose: true`.*$/s, "");
  if (TLS_RE.test(`${e.code ?? ""} ${message}`)) {
    return {
      error: new NetworkError(
        `TLS verification failed for ${host}: ${message}${e.code && !message.includes(e.code) ? ` (${e.code})` : ""}`,
        "If your network uses a private certificate authority, point NODE_EXTRA_CA_CERTS (or SSL_CERT_FILE) at its PEM bundle.",
      ),
      retryable: false,
    };
  }
  const known = e.code ? CONNECTION_TEXT[e.code] : undefined;
  return {
    error: new NetworkError(
      `Could not connect to ${host}: ${known ?? message}`,
      "Check your network, proxy settings (HTTPS_PROXY, NO_PROXY) and TRACKER_URL.",
    ),
    retryable: true,
  };
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

function formatHeaders(headers: Headers | Record<string, string>): string {
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  return entries
    .map(([k, val]) => {
      const name = k.toLowerCase();
      const masked = /^(authorization|cookie|set-cookie|proxy-authorization)$/.test(name)
        ? "[REDACTED]"
        : val;
      return `    ${name}: ${masked}`;
    })
    .join("\n");
}

/** Resolves the base URL a request goes to. */
export async function baseUrlFor(ctx: TrackerContext, host: Host | undefined): Promise<string> {
  if (!host || host === "control") return ctx.settings.baseUrl;
  if ("baseUrl" in host) return host.baseUrl;
  return ctx.regions.urlForOrg(ctx, host.org);
}

type Outcome = { res: Response; text: string } | { failure: TransportFailure };

/** One HTTP exchange: fetch plus the whole body, with failures classified instead of thrown. */
async function exchange(
  ctx: TrackerContext,
  url: string,
  init: RequestInit,
  timeoutMs: number,
  endpoint: string,
): Promise<Outcome> {
  let res: Response;
  try {
    res = await ctx.fetch(url, init);
  } catch (err) {
    return { failure: classifyFetchFailure(err, url, timeoutMs) };
  }
  try {
    return { res, text: await res.text() };
  } catch (err) {
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

/** A successful response whose body has arrived but is not parsed yet. */
export interface DeferredResponse<T> {
  status: number;
  headers: Headers;
  /** Cursor of the next page (Link header, `results="true"` only). */
  nextCursor: string | undefined;
  url: string;
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
export async function apiRequestDeferred<T>(
  ctx: TrackerContext,
  opts: RequestOptions<T>,
): Promise<DeferredResponse<T>> {
  const method = opts.method ?? "GET";
  const base = await baseUrlFor(ctx, opts.host);
  const url = buildUrl(base, opts.path, opts.query);
  const endpoint = `${method} ${opts.path}`;
  const timeoutMs = opts.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const canRetry = opts.retry ?? method === "GET";
  let token: AuthToken | undefined = opts.auth === false ? undefined : await ctx.tokens.current(ctx);
  let refreshed = false;
  // Resolved once: a bad CA bundle path is a ConfigError before anything is sent.
  const transport = fetchOptionsFor(ctx, url);

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
    const tag = attempt > 1 ? ` (attempt ${attempt}/${MAX_ATTEMPTS})` : "";
    if (ctx.log.enabled("trace")) {
      const via = typeof transport.proxy === "string" ? ` via proxy ${redactUrl(transport.proxy)}` : "";
      ctx.log.trace(`→ ${method} ${url}${via}${tag}\n${formatHeaders(headers)}`);
    }
    const started = performance.now();
    const outcome = await exchange(
      ctx,
      url,
      {
        method,
        headers,
        body,
        signal: AbortSignal.timeout(timeoutMs),
        redirect: "follow",
        ...transport,
      } as RequestInit,
      timeoutMs,
      endpoint,
    );
    const ms = Math.round(performance.now() - started);

    if ("failure" in outcome) {
      const { error, retryable } = outcome.failure;
      ctx.log.trace(`✗ ${method} ${url} failed after ${ms} ms: ${error.message}`);
      if (canRetry && retryable && attempt < MAX_ATTEMPTS) {
        const wait = backoffMs(attempt);
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
      if (canRetry && RETRY_STATUSES.has(res.status) && attempt < MAX_ATTEMPTS) {
        // A wait beyond the cap would just hit the same limit again: report it instead.
        if (requested === undefined || requested <= MAX_SERVER_WAIT_MS) {
          const wait = requested ?? backoffMs(attempt);
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
      parse: () => parseBody(text, opts.schema, endpoint, res.status),
    };
  }
}

function redactUrl(raw: string): string {
  try {
    const u = new URL(raw);
    const creds = u.username || u.password ? "[REDACTED]@" : "";
    return `${u.protocol}//${creds}${u.host}${u.pathname}`;
  } catch {
    return "[invalid proxy URL]";
  }
}

/** The User-Agent every request carries: `tracker/<version> (<os>-<arch>) bun/<bun-version>` (API.md §1.5). */
export function userAgent(): string {
  const os = process.platform === "win32" ? "windows" : process.platform;
  return `tracker/${VERSION} (${os}-${process.arch}) bun/${Bun.version}`;
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
    hint: "The service answered with data tracker does not understand. Check TRACKER_URL, or upgrade tracker.",
  });
}

/** Scopes named by an RFC 6750 `insufficient_scope` challenge, if the server sent one. */
export function challengedScopes(headers: Headers | undefined): string[] {
  const challenge = headers?.get("www-authenticate");
  if (!challenge || !/insufficient_scope/i.test(challenge)) return [];
  const m = /scope="([^"]*)"/i.exec(challenge);
  return m?.[1] ? m[1].split(/\s+/).filter(Boolean) : [];
}

const SEARCH_PARSE_RE = /^(Error parsing search query|Invalid search query|Parse error)\s*:?\s*/i;

/**
 * Maps a non-success status to the right error class: 401 → AuthError, 400 search-query parse
 * errors → ValidationError with the server's message, everything else → ApiError with the API's
 * detail and a hint (scopes on 403, case-sensitive slugs on 404, the wait on 429).
 */
export function errorForStatus(
  status: number,
  body: string,
  endpoint: string,
  token?: AuthToken,
  headers?: Headers,
  waitMs?: number,
): CliError {
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
  if (status === 400 && detail && SEARCH_PARSE_RE.test(detail)) {
    const reason = detail.replace(SEARCH_PARSE_RE, "");
    return new ValidationError(`Invalid search query: ${reason || detail}`, "query");
  }
  let hint: string | undefined;
  if (status === 403) {
    const scopes = challengedScopes(headers);
    hint =
      scopes.length > 0 ? `The token lacks the scope(s) ${scopes.join(", ")}. ${SCOPE_HINT}` : SCOPE_HINT;
  } else if (status === 404) {
    hint = NOT_FOUND_HINT;
  } else if (status === 429) {
    hint =
      waitMs !== undefined
        ? `Rate limited by the service; try again in ${Math.ceil(waitMs / 1000)} s.`
        : "Rate limited by the service; wait a little and try again.";
  }
  return new ApiError({ status, detail, endpoint, hint });
}
