/**
 * Mapping of HTTP failures to the CLI's errors: error bodies to their detail text, statuses to
 * ApiError/AuthError with hints, and transport failures (refused, TLS, timeout) to NetworkError.
 */
import type { AuthToken } from "../auth/token.ts";
import { ApiError, AuthError, type CliError, NetworkError } from "../errors.ts";
import { scopeHint } from "../auth/scopes.ts";

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
    // Field errors (`{"assignedTo": ["Unknown actor input"]}`, nested for statusDetails).
    const fields = fieldErrors(o);
    if (fields.length > 0) return fields.join("; ");
  }
  const compact = JSON.stringify(parsed);
  return compact.length > 300 ? `${compact.slice(0, 300)}…` : compact;
}

function fieldErrors(o: Record<string, unknown>, prefix = ""): string[] {
  const out: string[] = [];
  for (const [key, val] of Object.entries(o)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (Array.isArray(val) && val.every((x) => typeof x === "string")) out.push(`${name}: ${val.join(" ")}`);
    else if (val && typeof val === "object" && !Array.isArray(val)) {
      const inner = fieldErrors(val as Record<string, unknown>, name);
      if (inner.length === 0) return [];
      out.push(...inner);
    } else return [];
  }
  return out;
}

/** Scope hint shown on 403 (spec section 5). */
export const SCOPE_HINT =
  "The token may lack the needed scopes: org:read, project:read, event:read (and event:write to change issues or start AI analysis, project:releases for releases and uploads). A user token or a broader org token fixes this.";

/** Hint shown on 404. */
export const NOT_FOUND_HINT =
  "The resource does not exist or is not visible to this token. Slugs are case-sensitive.";

/** A request that got no usable HTTP answer, and whether trying again can help. */
export interface TransportFailure {
  error: CliError;
  retryable: boolean;
  /** The request cannot have reached the server (no connection was made): safe to resend a write. */
  unsent?: boolean;
}

/** Failures before any byte reached the server: refused, unknown or unreachable host. */
const UNSENT_CODES = new Set([
  "ECONNREFUSED",
  "ConnectionRefused",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

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
    unsent: e.code !== undefined && UNSENT_CODES.has(e.code),
  };
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

/** Scopes named by an RFC 6750 `insufficient_scope` challenge, if the server sent one. */
export function challengedScopes(headers: Headers | undefined): string[] {
  const challenge = headers?.get("www-authenticate");
  if (!challenge || !/insufficient_scope/i.test(challenge)) return [];
  const m = /scope="([^"]*)"/i.exec(challenge);
  return m?.[1] ? m[1].split(/\s+/).filter(Boolean) : [];
}

const SEARCH_QUERY_DETAIL = "Invalid search query: ";

/** A 400 whose detail says the server could not parse the search query (not a refused parameter). */
export function isSearchQueryError(err: unknown): err is ApiError {
  return (
    err instanceof ApiError && err.status === 400 && (err.detail?.startsWith(SEARCH_QUERY_DETAIL) ?? false)
  );
}

const SEARCH_PARSE_RE = /^(Error parsing search query|Invalid search query|Parse error)\s*:?\s*/i;

/**
 * Maps a non-success status to the right error class: 401 → AuthError, everything else → ApiError
 * (spec §7: "Request failed with status <code>", then the API's detail indented) with a hint:
 * the query syntax for a search the server cannot parse, scopes on 403, case-sensitive slugs on
 * 404, the wait on 429.
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
  let hint: string | undefined;
  let shown = detail;
  if (status === 400 && detail && SEARCH_PARSE_RE.test(detail)) {
    shown = `${SEARCH_QUERY_DETAIL}${detail.replace(SEARCH_PARSE_RE, "") || detail}`;
    hint = "Check the search query (-q/--query; Sentry search syntax, e.g. 'is:unresolved level:error').";
  } else if (status === 403) {
    const scopes = challengedScopes(headers);
    hint =
      scopes.length > 0
        ? `The token lacks the scope(s) ${scopes.join(", ")}. ${SCOPE_HINT}`
        : (scopeHint(endpoint, token) ?? SCOPE_HINT);
  } else if (status === 404) {
    hint = NOT_FOUND_HINT;
  } else if (status === 429) {
    hint =
      waitMs !== undefined
        ? `Rate limited by the service; try again in ${Math.ceil(waitMs / 1000)} s.`
        : "Rate limited by the service; wait a little and try again.";
  }
  return new ApiError({ status, detail: shown, endpoint, hint });
}
