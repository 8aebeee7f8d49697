/**
 * Trace ids shown by `trace list`, so `trace view` can accept the 8-character prefix from the
 * table and knows which organization a listed trace lives in.
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { RECENT_TRACES_TTL_DAYS } from "../trace/windows.ts";
import { parseRow, useCache } from "./access.ts";

/** Listings older than this are not used to resolve prefixes. */
export const RECENT_TRACES_TTL_MS = RECENT_TRACES_TTL_DAYS * 24 * 60 * 60 * 1000;
/** Rows kept at most (newest first); older ones are pruned on every write. */
export const RECENT_TRACES_MAX = 5000;

const RecentTraceRow = v.object({
  org: v.string(),
  trace_id: v.string(),
  project: v.nullable(v.string()),
  listed_at: v.number(),
});
/** One remembered trace. */
export type RecentTrace = v.InferOutput<typeof RecentTraceRow>;

/** Remembers the traces of a listing (best effort: a read-only store just skips it). */
export function rememberTraces(
  ctx: TrackerContext,
  org: string,
  traces: readonly { traceId: string; project: string | null }[],
): void {
  if (traces.length === 0) return;
  const now = ctx.now();
  useCache(
    ctx,
    (db) => {
      const insert = db.query(
        "INSERT OR REPLACE INTO recent_traces (org, trace_id, project, listed_at) VALUES (?, ?, ?, ?)",
      );
      db.transaction(() => {
        for (const t of traces) insert.run(org, t.traceId.toLowerCase(), t.project, now);
        db.run("DELETE FROM recent_traces WHERE listed_at < ?", [now - RECENT_TRACES_TTL_MS]);
        db.run(
          "DELETE FROM recent_traces WHERE rowid NOT IN (SELECT rowid FROM recent_traces ORDER BY listed_at DESC LIMIT ?)",
          [RECENT_TRACES_MAX],
        );
      })();
    },
    undefined,
    true,
  );
}

/** Recently listed traces whose id starts with `prefix` (lower-case hex), optionally in one org. */
export function findRecentTraces(ctx: TrackerContext, prefix: string, org?: string): RecentTrace[] {
  return useCache(
    ctx,
    (db) => {
      // Hex prefixes contain no LIKE wildcards; substr keeps the match exact and case-sensitive.
      const rows = db
        .query(
          "SELECT org, trace_id, project, listed_at FROM recent_traces WHERE substr(trace_id, 1, ?) = ? AND listed_at >= ? ORDER BY listed_at DESC, org, trace_id",
        )
        .all(prefix.length, prefix, ctx.now() - RECENT_TRACES_TTL_MS);
      const parsed = rows.map((r) => parseRow(RecentTraceRow, r, "recent_traces"));
      return org === undefined ? parsed : parsed.filter((r) => r.org === org);
    },
    [],
  );
}
