import type * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { apiRequest, type Host, type QueryValue } from "./client.ts";

/** Largest page any Sentry list endpoint serves. */
export const API_PAGE_MAX = 100;
/** Safety cap on pages fetched by one listing. */
export const MAX_PAGES = 50;

/** A page-limited listing result. */
export interface Page<T> {
  data: T[];
  /** Cursor after the last returned row; present only when more rows exist. */
  nextCursor: string | undefined;
  /** The cursor that continues at row `k` of `data` (`nextCursor` for k = data.length). */
  resumeAt?: (k: number) => string | undefined;
}

/** Fetches every page of a generic list endpoint (`per_page` ≤ 100) up to MAX_PAGES. */
export async function fetchAllPages<T>(
  ctx: TrackerContext,
  opts: {
    path: string;
    host: Host;
    query?: Record<string, QueryValue>;
    schema: v.GenericSchema<unknown, T[]>;
  },
): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  const seen = new Set<string>();
  for (let i = 0; i < MAX_PAGES; i++) {
    const res = await apiRequest(ctx, {
      path: opts.path,
      host: opts.host,
      query: { ...opts.query, per_page: API_PAGE_MAX, cursor },
      schema: opts.schema,
    });
    out.push(...res.data);
    // A server whose next cursor repeats would page forever: a repeat ends the listing.
    if (!res.nextCursor || seen.has(res.nextCursor)) break;
    seen.add(res.nextCursor);
    cursor = res.nextCursor;
  }
  return out;
}

/** One fetched page: its rows, or a function that parses them, and the cursor of the next page. */
export interface FetchedPage<T> {
  rows: T[] | (() => T[]);
  nextCursor: string | undefined;
}

/**
 * Separates the rows-to-skip suffix of a cursor tracker gave out (`<server cursor>@<n>`, or `@<n>`
 * for the first page): a position inside one server page, which a server cursor cannot name.
 */
export function splitCursor(cursor: string | undefined): { server: string | undefined; skip: number } {
  const m = cursor === undefined ? null : /^(.*)@(\d{1,2})$/.exec(cursor);
  if (!m) return { server: cursor, skip: 0 };
  return { server: m[1] === "" ? undefined : m[1], skip: Number(m[2]) };
}

/** The cursor that resumes `skip` rows into the server page that `server` starts (see splitCursor). */
export function joinCursor(server: string | undefined, skip: number): string | undefined {
  return skip > 0 ? `${server ?? ""}@${skip}` : server;
}

/** Where the rows of one request start in a listing, and how that request was made. */
interface Segment {
  at: number;
  cursor: string | undefined;
  skip: number;
}

/**
 * Fetches up to `limit` rows, asking each request only for what is still missing (≤ 100), so the
 * returned cursor resumes exactly after the last row. `fetchPage` performs one request. A start
 * cursor with a skip (`<cursor>@<n>`) asks its page for `n` more rows and drops them.
 *
 * Pages are pipelined: as soon as a page's headers name the next cursor, the next request goes out
 * (sized as if this page were full), and this page is parsed while the server answers it. A short
 * page only means one more, smaller request; at most MAX_PAGES requests are ever made.
 *
 * The result's `resumeAt(k)` is the cursor that continues at row k (0 ≤ k ≤ rows returned), so a
 * listing shown only in part (a size bound) can still be continued without skipping rows.
 */
export async function fetchLimited<T>(
  limit: number,
  startCursor: string | undefined,
  fetchPage: (size: number, cursor: string | undefined) => Promise<FetchedPage<T>>,
): Promise<Page<T>> {
  const data: T[] = [];
  const segments: Segment[] = [];
  const start = splitCursor(startCursor);
  let skip = start.skip;
  let cursor = start.server;
  let size = Math.min(API_PAGE_MAX, limit + skip);
  let pending: Promise<FetchedPage<T>> | undefined = fetchPage(size, cursor);
  let next: string | undefined;
  const seen = new Set<string>(start.server ? [start.server] : []);
  for (let sent = 1; pending; ) {
    const page: FetchedPage<T> = await pending;
    pending = undefined;
    // A next cursor seen before would page forever (a broken server): treat it as the end.
    next = page.nextCursor !== undefined && seen.has(page.nextCursor) ? undefined : page.nextCursor;
    if (next) seen.add(next);
    const used = size - skip;
    const aheadSize = Math.min(API_PAGE_MAX, limit - data.length - used);
    const aheadCursor = next;
    if (next && aheadSize > 0 && sent < MAX_PAGES) {
      pending = fetchPage(aheadSize, next);
      sent++;
      // Should this page fail to parse, the request already in flight must not surface as unhandled.
      pending.catch(() => {});
    }
    const rows = typeof page.rows === "function" ? page.rows() : page.rows;
    segments.push({ at: data.length, cursor, skip });
    data.push(...rows.slice(skip, size));
    skip = 0;
    cursor = aheadCursor;
    if (data.length >= limit || !next) break;
    if (pending) {
      size = aheadSize;
    } else if (sent < MAX_PAGES) {
      // This page was short of what was asked: ask for what is still missing.
      size = Math.min(API_PAGE_MAX, limit - data.length);
      pending = fetchPage(size, next);
      sent++;
    }
  }
  const end = next;
  const resumeAt = (k: number): string | undefined => {
    if (k >= data.length) return end;
    let seg = segments[0] as Segment;
    for (const s of segments) if (s.at <= k) seg = s;
    return joinCursor(seg.cursor, seg.skip + (k - seg.at));
  };
  return { data, nextCursor: next, resumeAt };
}
