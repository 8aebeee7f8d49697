/**
 * Values seen in listings that completion offers in their slots: release versions (`release
 * view|finalize|deploy … <TAB>`) and monitor slugs (`monitor run <TAB>`). Written by the lists
 * that show them (per service URL), read at TAB: never a request.
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { parseRow, useCache } from "./access.ts";

/** What a remembered value is. */
export type CompletionKind = "release" | "monitor";

/** Values kept per kind at most (newest first); older ones are pruned on every write. */
export const COMPLETION_VALUES_MAX = 500;

const ValueRow = v.object({ value: v.string() });

/** Remembers the values of a listing of `org` (best effort: a read-only store just skips it). */
export function rememberCompletionValues(
  ctx: TrackerContext,
  kind: CompletionKind,
  org: string,
  values: readonly string[],
): void {
  if (values.length === 0) return;
  const now = ctx.now();
  useCache(
    ctx,
    (db) => {
      const insert = db.query(
        "INSERT OR REPLACE INTO completion_values (base_url, kind, org, value, seen_at) VALUES (?, ?, ?, ?, ?)",
      );
      db.transaction(() => {
        // The listing's first value (the newest release) gets the latest time, so it is offered first.
        for (const [i, value] of values.entries())
          insert.run(ctx.settings.baseUrl, kind, org, value, now - i);
        db.run(
          "DELETE FROM completion_values WHERE kind = ? AND rowid NOT IN (SELECT rowid FROM completion_values WHERE kind = ? ORDER BY seen_at DESC LIMIT ?)",
          [kind, kind, COMPLETION_VALUES_MAX],
        );
      })();
    },
    undefined,
    true,
  );
}

/** The remembered values of a kind on this service, newest first, without duplicates (across organizations). */
export function completionValues(ctx: TrackerContext, kind: CompletionKind): string[] {
  return useCache(
    ctx,
    (db) =>
      db
        .query(
          "SELECT value FROM completion_values WHERE base_url = ? AND kind = ? GROUP BY value ORDER BY MAX(seen_at) DESC, value",
        )
        .all(ctx.settings.baseUrl, kind)
        .map((r) => parseRow(ValueRow, r, "completion_values").value),
    [],
  );
}
