/** Response helpers of the fake server that behave like Sentry's (JSON bodies, Link cursors). */
import type { Fault, FakeRequest } from "./types.ts";

/** A JSON response. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", ...headers },
  });
}

/** Sentry's `{"detail": ...}` error body. */
export function detail(status: number, message: string): Response {
  return json({ detail: message }, status);
}

/** 404 with Sentry's generic text. */
export function notFound(): Response {
  return detail(404, "The requested resource does not exist");
}

/** Parses `<value>:<offset>:<is_prev>`; undefined when absent, null when malformed. */
export function parseCursor(raw: string | null): number | undefined | null {
  if (raw === null || raw === "") return undefined;
  const m = /^[^:]+:(\d+):([01])$/.exec(raw);
  return m ? Number(m[1]) : null;
}

/** Builds Sentry's Link header (both rel entries always present). */
export function linkHeader(
  req: FakeRequest,
  prevOffset: number,
  nextOffset: number,
  hasPrev: boolean,
  hasNext: boolean,
): string {
  const base = new URL(req.url.toString());
  base.searchParams.delete("cursor");
  const qs = base.searchParams.toString();
  const mk = (offset: number, prev: boolean, results: boolean) => {
    const cursor = `0:${offset}:${prev ? 1 : 0}`;
    const url = `${base.origin}${base.pathname}?${qs}&cursor=${cursor}`;
    return `<${url}>; rel="${prev ? "previous" : "next"}"; results="${results}"; cursor="${cursor}"`;
  };
  return `${mk(prevOffset, true, hasPrev)}, ${mk(nextOffset, false, hasNext)}`;
}

/** Options of `paginate`. */
export interface PageOptions {
  /** `per_page` (generic lists: >100 is a 400) or `limit` (issue search: clamped to 100). */
  sizeParam: "per_page" | "limit";
  defaultSize: number;
  /** Wrap rows as `{data: rows, ...extra}` (events endpoint) instead of a bare array. */
  wrap?: (rows: unknown[]) => unknown;
}

/** Serves one page of `items` with Sentry's paging rules, or the 400 Sentry gives for bad input. */
export function paginate(req: FakeRequest, items: readonly unknown[], opts: PageOptions): Response {
  const offset = parseCursor(req.query.get("cursor"));
  if (offset === null) return detail(400, "Invalid cursor parameter.");
  const rawSize = req.query.get(opts.sizeParam);
  let size = opts.defaultSize;
  if (rawSize !== null) {
    size = Number(rawSize);
    if (!Number.isInteger(size) || size < 1 || (opts.sizeParam === "per_page" && size > 100)) {
      return detail(400, "Invalid per_page value. Must be between 1 and 100.");
    }
    if (opts.sizeParam === "limit") size = Math.min(size, 100);
  }
  const start = offset ?? 0;
  const rows = items.slice(start, start + size);
  const next = start + size;
  const link = linkHeader(req, Math.max(0, start - size), next, start > 0, next < items.length);
  const body = opts.wrap ? opts.wrap(rows) : rows;
  return json(body, 200, { Link: link, "X-Hits": String(items.length) });
}

const GATEWAY_TEXT: Record<number, string> = {
  502: "502 Bad Gateway",
  503: "503 Service Temporarily Unavailable",
  504: "504 Gateway Time-out",
};

/** Fault presets whose bodies and headers follow API.md section 9 (pass `extra` to aim them). */
export const faults = {
  /**
   * 429 with Sentry's rate-limit body and `X-Sentry-Rate-Limit-*` headers; `retryAfter` adds a
   * Retry-After header (seconds or an HTTP-date), `resetAt` the reset time in Unix seconds.
   */
  rateLimited(
    opts: { retryAfter?: string; resetAt?: number; concurrent?: boolean } = {},
    extra: Partial<Fault> = {},
  ): Fault {
    const headers: Record<string, string> = {
      "X-Sentry-Rate-Limit-Limit": "40",
      "X-Sentry-Rate-Limit-Remaining": "0",
      "X-Sentry-Rate-Limit-ConcurrentLimit": "25",
      "X-Sentry-Rate-Limit-ConcurrentRemaining": opts.concurrent ? "0" : "24",
    };
    if (opts.resetAt !== undefined) headers["X-Sentry-Rate-Limit-Reset"] = String(opts.resetAt);
    if (opts.retryAfter !== undefined) headers["Retry-After"] = opts.retryAfter;
    const text = opts.concurrent
      ? "You are attempting to go above the allowed concurrency for this endpoint. Concurrency limit is 25"
      : "You are attempting to use this endpoint too frequently. Limit is 40 requests in 1 seconds";
    return { status: 429, body: { detail: text }, headers, ...extra };
  },
  /** 500 `{"detail": "Internal Error", "errorId": ...}`. */
  internalError(errorId = "0f1e2d3c4b5a69788796a5b4c3d2e1f0", extra: Partial<Fault> = {}): Fault {
    return { status: 500, body: { detail: "Internal Error", errorId }, ...extra };
  },
  /** A proxy's 502/503/504 with an HTML page (or an empty body). */
  gateway(status: 502 | 503 | 504, extra: Partial<Fault> & { empty?: boolean } = {}): Fault {
    const title = GATEWAY_TEXT[status];
    const { empty, ...rest } = extra;
    return {
      status,
      raw: empty
        ? ""
        : `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`,
      headers: empty ? {} : { "Content-Type": "text/html" },
      ...rest,
    };
  },
  /** A connection reset before any response byte. */
  connectionReset(extra: Partial<Fault> = {}): Fault {
    return { disconnect: "before-response", ...extra };
  },
};
