import type { TrackerContext } from "../../context.ts";
import { listTraces } from "../../lib/api/traces.ts";
import { TRACE_LIMIT, TRACE_LIST_PERIOD } from "../../lib/trace/windows.ts";
import { cursorKey, continuesPastEnd, resolveCursor, saveCursor } from "../../lib/db/cursors.ts";
import { rememberTraces } from "../../lib/db/recent-traces.ts";
import { TRACE_LIST_VIEW, toTraceListItem } from "../../lib/format/trace-table.ts";
import { writeListTip, writePastEnd, writeTip } from "../../lib/output.ts";
import { writeListView } from "../../lib/view/render.ts";
import { resolveLogTarget } from "../../lib/log/target.ts";
import type { TraceListFlags } from "./index.ts";
import { nextPageCommand } from "../../lib/list-page.ts";
import { quoteWord } from "../../lib/shell-quote.ts";
import { readListFilters } from "../../lib/list-filters.ts";
import { joinQuery } from "../../lib/log/query.ts";

/** The words that repeat this listing's flags (nextPageCommand quotes them). */
function pageWords(flags: TraceListFlags, query: string | undefined, filters: readonly string[]): string[] {
  const words: string[] = [];
  if (flags.sort !== "date") words.push("-s", flags.sort);
  words.push(...filters);
  if (query !== undefined) words.push("-q", query);
  if (flags.limit !== TRACE_LIMIT.fallback) words.push("-n", String(flags.limit));
  return words;
}

/** `tracker trace list`: resolve the project, page to the limit, remember the cursor and ids, render. */
export default async function traceList(
  this: TrackerContext,
  flags: TraceListFlags,
  target?: string,
): Promise<void> {
  const f = readListFilters(this, flags, TRACE_LIST_PERIOD);
  // `acme/` (or `acme`) lists every project of the organization (project=-1), as log list does.
  const t = await resolveLogTarget(this, target, { command: "tracker trace list", fresh: flags.fresh });
  const { org } = t;
  const where = t.label;
  const userQuery = flags.query?.trim() ? flags.query.trim() : undefined;
  const query = joinQuery(f.envToken, userQuery);
  // The default window keeps the key it always had, so saved positions stay valid.
  const key = cursorKey("trace-list", where, {
    sort: flags.sort,
    query: userQuery,
    ...(f.win.isDefault ? {} : { period: f.key.period }),
    ...(f.key.environment === undefined ? {} : { environment: f.key.environment }),
  });
  if (continuesPastEnd(this, key, flags.cursor)) return writePastEnd(this, flags.json, `traces in ${where}`);
  const cursor = resolveCursor(this, key, flags.cursor);
  const page = await listTraces(this, {
    org,
    projectIds: t.projectIds,
    limit: flags.limit,
    sort: flags.sort,
    query,
    period: f.win.window,
    cursor,
  });
  saveCursor(this, key, page.nextCursor);
  const items = page.data.map((r) => toTraceListItem(r, t.project ?? ""));
  rememberTraces(
    this,
    org,
    items.map((i) => ({ traceId: i.traceId, project: i.project })),
  );
  const run = {
    view: TRACE_LIST_VIEW,
    items,
    options: undefined,
    page: { nextCursor: page.nextCursor, resumeAt: page.resumeAt },
    save: (c: string | undefined) => saveCursor(this, key, c),
  };
  if (flags.json) return writeListView(this, true, run);
  if (items.length === 0) {
    const filter = `${f.envText}${userQuery ? ` matching ${quoteWord(userQuery)}` : ""}`;
    writeTip(
      this,
      cursor
        ? `No more traces in ${where}${filter}.`
        : `No traces found in ${where}${filter} in ${f.win.text}.`,
    );
    return;
  }
  await writeListView(this, false, run);
  const order = flags.sort === "duration" ? "slowest first" : "newest first";
  const shown = `Showing ${items.length} trace${items.length === 1 ? "" : "s"} from ${where} (${order}, ${f.win.brief}${f.envText}).`;
  if (page.nextCursor) {
    writeListTip(
      this,
      `${shown} More available; next page:\n  ${nextPageCommand("tracker trace list", where, pageWords(flags, userQuery, f.argv))}`,
    );
  } else {
    writeListTip(this, `${shown} End of results.`);
  }
  writeListTip(this, "View a trace: tracker trace view <TRACE ID>");
}
