import type { TrackerContext } from "../../context.ts";
import { fetchLogPage, type LogQuery, type LogRow } from "../api/logs.ts";
import { AuthError, CliError } from "../errors.ts";
import { formatLogHeader, formatLogLine } from "../format/log-table.ts";
import { API_PAGE_MAX } from "../http/paginate.ts";
import { logNs, RecentIds, sortLogsAscending, toLogItem } from "./items.ts";
import { FOLLOW_MAX_BACKOFF_MS, FOLLOW_POLL_PERIOD, FOLLOW_SEEN_IDS, LOG_LIMIT } from "./options.ts";
import { joinQuery } from "./query.ts";
import type { LogTarget } from "./target.ts";
import { writeLines, writeListTip } from "../output.ts";
import { writeJsonLine } from "../output-lines.ts";
import type { Window } from "../time-window.ts";

/** The flags of `log list` that following reads. */
export interface FollowFlags {
  readonly json: boolean;
  /** How many recent logs come first (default LOG_LIMIT.fallback). */
  readonly limit?: number;
  /** Milliseconds between polls. */
  readonly interval: number;
}

/** What `log list --follow` follows. */
export interface FollowOptions {
  target: LogTarget;
  /** The user's query with tracker's filters (`trace:`), or undefined. */
  query: string | undefined;
  flags: FollowFlags;
  /** The window of the first page (relative: `--follow` refuses an absolute one). */
  period: Window;
}

/** The wait before the next poll after `failures` failed ones in a row: doubling, capped. */
export function pollDelayMs(intervalMs: number, failures: number): number {
  if (failures === 0) return intervalMs;
  return Math.min(FOLLOW_MAX_BACKOFF_MS, intervalMs * 2 ** Math.min(failures, 16));
}

/**
 * `log list --follow`: prints the newest page oldest first, then one request per poll for logs at
 * or after the last one printed (`timestamp_precise:>=<ns>`, nanoseconds as a big integer), and
 * prints those not printed before, in time order. Memory is the last timestamp and a bounded set
 * of recent ids (logs sharing the last timestamp come back and are dropped). A failing poll is
 * retried with backoff and reported once per outage; only an authentication failure ends the
 * loop. `-n` sizes the first page (as `tail -f -n`); it runs until Ctrl-C.
 */
export async function followLogs(ctx: TrackerContext, opts: FollowOptions): Promise<void> {
  const { target, flags } = opts;
  const backlog = Math.min(flags.limit ?? LOG_LIMIT.fallback, API_PAGE_MAX);
  const seen = new RecentIds(FOLLOW_SEEN_IDS);
  const width = ctx.isStdoutTTY && !flags.json ? ctx.terminalWidth : undefined;
  let lastNs: bigint | undefined;
  const emit = async (rows: readonly LogRow[]) => {
    for (const row of sortLogsAscending(rows)) {
      const ns = logNs(row);
      if (lastNs === undefined || ns > lastNs) lastNs = ns;
      const item = toLogItem(row);
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      if (flags.json) await writeJsonLine(ctx, item);
      else writeLines(ctx, formatLogLine(item, { width }));
    }
  };
  const base: LogQuery = {
    org: target.org,
    projectIds: target.projectIds,
    sort: "-timestamp",
    period: opts.period,
  };
  const first = await fetchLogPage(ctx, { ...base, query: opts.query }, backlog);
  if (width !== undefined) writeLines(ctx, formatLogHeader(width));
  await emit(first.data);
  if (!flags.json) writeListTip(ctx, `Following new logs of ${target.label}; Ctrl-C to stop.`);
  let failures = 0;
  for (;;) {
    await ctx.sleep(pollDelayMs(flags.interval, failures));
    const since = lastNs === undefined ? undefined : `timestamp_precise:>=${lastNs.toString()}`;
    let rows: LogRow[];
    try {
      const page = await fetchLogPage(
        ctx,
        {
          ...base,
          query: joinQuery(since, opts.query),
          sort: "timestamp",
          period: FOLLOW_POLL_PERIOD,
          retry: false,
        },
        API_PAGE_MAX,
      );
      rows = page.data;
    } catch (err) {
      if (err instanceof AuthError) throw err;
      failures++;
      if (failures === 1) {
        const why = err instanceof CliError ? err.message : String(err);
        ctx.log.warn(`Polling for new logs failed (${why.split("\n")[0]}); retrying until it works again.`);
      } else {
        ctx.log.debug(`Poll failed again (${failures} in a row)`);
      }
      continue;
    }
    if (failures > 0) ctx.log.debug(`Polling works again after ${failures} failed poll(s)`);
    failures = 0;
    await emit(rows);
  }
}
