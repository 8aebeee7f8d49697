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
  for (let i = 0; i < MAX_PAGES; i++) {
    const res = await apiRequest(ctx, {
      path: opts.path,
      host: opts.host,
      query: { ...opts.query, per_page: API_PAGE_MAX, cursor },
      schema: opts.schema,
    });
    out.push(...res.data);
    if (!res.nextCursor) break;
    cursor = res.nextCursor;
  }
  return out;
}

/**
 * Fetches up to `limit` rows, asking each request only for what is still missing (≤ 100), so the
 * returned cursor resumes exactly after the last row. `fetchPage` performs one request.
 */
export async function fetchLimited<T>(
  limit: number,
  startCursor: string | undefined,
  fetchPage: (
    size: number,
    cursor: string | undefined,
  ) => Promise<{ rows: T[]; nextCursor: string | undefined }>,
): Promise<Page<T>> {
  const data: T[] = [];
  let cursor = startCursor;
  let next: string | undefined;
  for (let i = 0; i < MAX_PAGES; i++) {
    const size = Math.min(API_PAGE_MAX, limit - data.length);
    const page = await fetchPage(size, cursor);
    data.push(...page.rows.slice(0, size));
    next = page.nextCursor;
    if (data.length >= limit || !next) break;
    cursor = next;
  }
  return { data, nextCursor: next };
}
