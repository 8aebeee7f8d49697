/**
 * The one list contract: every listing's `--json` document is `{…extra, "data": [...], "hasMore",
 * "nextCursor"?}` with `nextCursor` last, built here. The document remembers (out of band, so its
 * JSON is unchanged) how to continue at any of its rows; when a size bound (`--max-chars`, the MCP
 * default, `--format md`) shows only the first rows, output.ts prints the cursor that continues
 * right after the last row shown instead of the one after the whole page. The next-page hint of
 * every listing is built here too.
 */
import { quoteWord } from "./shell-quote.ts";

/** How to continue a listing at one of its rows, and where to remember that position. */
export interface ListMeta {
  /** Rows in the document's `data` as built. */
  rows: number;
  /** The cursor that continues at row k; undefined when the listing cannot be resumed there. */
  resumeAt?: (k: number) => string | undefined;
  /** Saves the cursor for `-c last` (the position after what was actually shown). */
  save?: (cursor: string | undefined) => void;
  /** The view's header and piped cells per row (lib/view/list.ts): the markdown table. */
  table?: () => { headers: string[]; rows: string[][] };
}

const META = new WeakMap<object, ListMeta>();

/** A page as the API layer returns it (lib/http/paginate.ts `Page`). */
export interface PageLike<T> {
  data: readonly T[];
  nextCursor?: string | undefined;
  resumeAt?: (k: number) => string | undefined;
}

/**
 * The envelope of one listing: `extra` members first (org, traceId…), then `data`, `hasMore` and,
 * only when a next page exists, `nextCursor`. `save` re-saves the `-c last` position when a size
 * bound shows fewer rows than the page held.
 */
export function listDocument<T>(
  page: PageLike<T>,
  opts: {
    extra?: Record<string, unknown>;
    hasMore?: boolean;
    save?: (cursor: string | undefined) => void;
    table?: ListMeta["table"];
  } = {},
): Record<string, unknown> {
  const doc: Record<string, unknown> = {
    ...opts.extra,
    data: page.data,
    hasMore: opts.hasMore ?? page.nextCursor !== undefined,
    ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}),
  };
  const resumeAt = page.resumeAt ?? ((k: number) => (k >= page.data.length ? page.nextCursor : undefined));
  META.set(doc, {
    rows: page.data.length,
    resumeAt,
    ...(opts.save ? { save: opts.save } : {}),
    ...(opts.table ? { table: opts.table } : {}),
  });
  return doc;
}

/**
 * A listing whose `--json` is its rows alone, an array (`org list`, `project list`, `release
 * deploys` predate the envelope): remembered like listDocument's, so `--format md` shows `table`.
 */
export function bareListDocument<T>(rows: T[], table: NonNullable<ListMeta["table"]>): T[] {
  META.set(rows, { rows: rows.length, table });
  return rows;
}

/** What listDocument remembered about a document, if it built it. */
export function listMeta(doc: unknown): ListMeta | undefined {
  return typeof doc === "object" && doc !== null ? META.get(doc) : undefined;
}

/**
 * The document `trimmed` (a size-bounded copy of a listing that now shows `kept` of its rows) with
 * `hasMore` true and `nextCursor` (last) continuing right after the last row shown. Unchanged when
 * no row was cut or the listing cannot be resumed at that row (its `truncated` report says how many
 * rows were cut).
 */
export function resumeTrimmed(
  trimmed: Record<string, unknown>,
  kept: number,
  meta: ListMeta,
): Record<string, unknown> {
  if (kept >= meta.rows) return trimmed;
  const cursor = meta.resumeAt?.(kept);
  if (cursor === undefined) return trimmed;
  const { nextCursor: _old, hasMore: _more, ...rest } = trimmed;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) {
    out[k] = v;
    if (k === "data") out.hasMore = true;
  }
  if (!("hasMore" in out)) out.hasMore = true;
  out.nextCursor = cursor;
  return out;
}

/**
 * The one next-page hint: `command`, its target, the words that repeat the listing's flags (raw:
 * each is quoted here, so a value can never become shell code), then `-c last`. A target of
 * several detected projects (`a/x, a/y`) is left out: the next run detects them again.
 */
export function nextPageCommand(
  command: string,
  target: string | undefined,
  words: readonly string[],
): string {
  const parts = [command];
  if (target && !target.includes(",")) parts.push(quoteWord(target));
  parts.push(...words.map(quoteWord), "-c", "last");
  return parts.join(" ");
}
