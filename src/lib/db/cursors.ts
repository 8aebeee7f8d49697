import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { ValidationError } from "../errors.ts";
import { parseRow, useCache } from "./access.ts";

/** Saved cursors older than this are ignored (a stale cursor would silently skip rows). */
export const CURSOR_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * An unchanged cursor saved less than this long ago is not written again: a write costs a WAL
 * frame, its fsyncs and a checkpoint at exit (about 1.5 ms of a 20 ms listing), and repeating the
 * same listing is the common case. The TTL then counts from at most this long before the last run.
 */
export const CURSOR_REFRESH_MS = 60 * 60 * 1000;

/**
 * The key of saved pagination state: command, target and every flag that changes the result set,
 * so a different sort, query or period starts again at page one.
 */
export function cursorKey(
  command: string,
  target: string,
  params: Record<string, string | number | undefined>,
): string {
  const parts = Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k] ?? ""}`);
  return `${command}|${target}|${parts.join("&")}`;
}

const CursorRow = v.object({ cursor: v.nullable(v.string()), updated_at: v.number() });
const SELECT_CURSOR = "SELECT cursor, updated_at FROM cursors WHERE key = ?";

/** Saves (or clears, with undefined) the cursor after the page just shown. */
export function saveCursor(ctx: TrackerContext, key: string, cursor: string | undefined): void {
  useCache(
    ctx,
    (db) => {
      const now = ctx.now();
      // A damaged row is simply overwritten.
      const saved = v.safeParse(CursorRow, db.query(SELECT_CURSOR).get(key));
      const age = saved.success ? now - saved.output.updated_at : -1;
      if (saved.success && saved.output.cursor === (cursor ?? null) && age >= 0 && age < CURSOR_REFRESH_MS)
        return;
      db.run("INSERT OR REPLACE INTO cursors (key, cursor, updated_at) VALUES (?, ?, ?)", [
        key,
        cursor ?? null,
        now,
      ]);
    },
    undefined,
    true,
  );
}

/** The saved cursor for a key, if fresh. */
export function loadCursor(ctx: TrackerContext, key: string): string | undefined {
  return useCache(
    ctx,
    (db) => {
      const row = db.query(SELECT_CURSOR).get(key);
      if (!row) return undefined;
      const r = parseRow(CursorRow, row, "cursors");
      return r.cursor && ctx.now() - r.updated_at < CURSOR_TTL_MS ? r.cursor : undefined;
    },
    undefined,
  );
}

/**
 * True when `-c last` continues a listing whose previous page was its last (the saved position is
 * the end, and still fresh): the answer is an empty page, not an error.
 */
export function continuesPastEnd(ctx: TrackerContext, key: string, flag: string | undefined): boolean {
  if (flag !== "last") return false;
  return useCache(
    ctx,
    (db) => {
      const saved = v.safeParse(CursorRow, db.query(SELECT_CURSOR).get(key));
      return (
        saved.success && saved.output.cursor === null && ctx.now() - saved.output.updated_at < CURSOR_TTL_MS
      );
    },
    false,
  );
}

/**
 * Turns `--cursor` into the cursor to send: `last` means the saved one for this key; with none
 * saved (other sort/query/period, or the end was reached) it fails saying so.
 */
export function resolveCursor(
  ctx: TrackerContext,
  key: string,
  flag: string | undefined,
): string | undefined {
  if (flag !== "last") return flag;
  const saved = loadCursor(ctx, key);
  if (saved) return saved;
  throw new ValidationError(
    "No saved position to continue from for this target and these flags (a different sort, query or period starts again at the first page). Run the command without -c last.",
    "cursor",
  );
}
