import type { TrackerContext } from "../../context.ts";
import { listLogs } from "../../lib/api/logs.ts";
import { continuesPastEnd, cursorKey, resolveCursor, saveCursor } from "../../lib/db/cursors.ts";
import { ValidationError } from "../../lib/errors.ts";
import { LOG_LIST_VIEW } from "../../lib/format/log-table.ts";
import { toLogItem } from "../../lib/log/items.ts";
import { LOG_LIMIT, LOG_LIST_PERIOD } from "../../lib/log/options.ts";
import { joinQuery, parseTraceFilter } from "../../lib/log/query.ts";
import { resolveLogTarget } from "../../lib/log/target.ts";
import { writeListTip, writePastEnd, writeTip } from "../../lib/output.ts";
import type { LogListFlags } from "./index.ts";
import { nextPageCommand } from "../../lib/list-page.ts";
import { writeListView } from "../../lib/view/render.ts";
import { withSlugHint } from "../../lib/resolve/not-found.ts";
import { quoteWord } from "../../lib/shell-quote.ts";
import { readListFilters } from "../../lib/list-filters.ts";

const COMMAND = "tracker log list";

/** The words that repeat this listing's flags (nextPageCommand quotes them). */
function pageWords(flags: LogListFlags, filters: readonly string[]): string[] {
  const words: string[] = [];
  if (flags.sort !== "newest") words.push("-s", flags.sort);
  words.push(...filters);
  if (flags.query?.trim()) words.push("-q", flags.query.trim());
  if (flags.trace) words.push("--trace", flags.trace.trim());
  if (flags.limit !== undefined) words.push("-n", String(flags.limit));
  return words;
}

function checkFlags(ctx: TrackerContext, flags: LogListFlags): void {
  if (!flags.follow) return;
  if (flags.cursor !== undefined)
    throw new ValidationError(
      "--follow starts at the newest logs; it cannot be combined with --cursor.",
      "cursor",
    );
  if (flags.sort !== "newest")
    throw new ValidationError("--follow prints logs oldest first as they arrive; drop -s/--sort.", "sort");
  if (
    flags.start !== undefined ||
    flags.end !== undefined ||
    (flags.period && !/^\d+[smhdw]$/.test(flags.period))
  )
    throw new ValidationError(
      "--follow follows from now; use a relative -t (e.g. -t 1h) instead of a fixed window.",
      "period",
    );
  if (ctx.output?.format === "md")
    throw new ValidationError("--follow prints JSON Lines; --format md is not available with it.", "format");
}

/** `tracker log list`: resolve the target, fetch a page (or follow), remember the cursor, render. */
export default async function logList(
  this: TrackerContext,
  flags: LogListFlags,
  target?: string,
): Promise<void> {
  checkFlags(this, flags);
  const f = readListFilters(this, flags, LOG_LIST_PERIOD);
  const traceId = flags.trace === undefined ? undefined : parseTraceFilter(flags.trace);
  const t = await resolveLogTarget(this, target, { command: COMMAND, fresh: flags.fresh });
  const query = joinQuery(traceId ? `trace:${traceId}` : undefined, f.envToken, flags.query);
  if (flags.follow) {
    const { followLogs } = await import("../../lib/log/follow.ts");
    return followLogs(this, { target: t, query, flags, period: f.win.window });
  }
  const key = cursorKey("log-list", t.label, {
    sort: flags.sort,
    query: flags.query?.trim() || undefined,
    trace: traceId,
    ...f.key,
  });
  if (continuesPastEnd(this, key, flags.cursor)) return writePastEnd(this, flags.json, `logs in ${t.label}`);
  const cursor = resolveCursor(this, key, flags.cursor);
  const page = await withSlugHint(this, { org: t.org }, () =>
    listLogs(this, {
      org: t.org,
      projectIds: t.projectIds,
      query,
      sort: flags.sort === "oldest" ? "timestamp" : "-timestamp",
      period: f.win.window,
      limit: flags.limit ?? LOG_LIMIT.fallback,
      cursor,
    }),
  );
  saveCursor(this, key, page.nextCursor);
  const items = page.data.map(toLogItem);
  const run = {
    view: LOG_LIST_VIEW,
    items,
    options: undefined,
    page: { nextCursor: page.nextCursor, resumeAt: page.resumeAt },
    save: (c: string | undefined) => saveCursor(this, key, c),
  };
  if (flags.json) return writeListView(this, true, run);
  if (items.length === 0) {
    const filter = query ? ` matching ${quoteWord(query)}` : "";
    writeTip(
      this,
      cursor
        ? `No more logs in ${t.label}${filter}.`
        : `No logs found in ${t.label}${filter} in ${f.win.text}.`,
    );
    return;
  }
  await writeListView(this, false, run);
  const order = flags.sort === "oldest" ? "oldest first" : "newest first";
  const shown = `Showing ${items.length} log${items.length === 1 ? "" : "s"} from ${t.label} (${order}, ${f.win.brief}${f.envText}).`;
  writeListTip(
    this,
    page.nextCursor
      ? `${shown} More available; next page:\n  ${nextPageCommand(COMMAND, t.label, pageWords(flags, f.argv))}`
      : `${shown} End of results.`,
  );
  writeListTip(this, "View one log: tracker log view <ID> (IDs are in piped and --json output)");
}
