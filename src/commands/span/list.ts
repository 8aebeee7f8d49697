import type { TrackerContext } from "../../context.ts";
import { queryEvents } from "../../lib/api/explore.ts";
import { continuesPastEnd, cursorKey, resolveCursor, saveCursor } from "../../lib/db/cursors.ts";
import { SPAN_LIST_VIEW } from "../../lib/format/span-table.ts";
import { writeListTip, writePastEnd, writeTip } from "../../lib/output.ts";
import { writeListView } from "../../lib/view/render.ts";
import { resolveLogTarget } from "../../lib/log/target.ts";
import { quoteWord } from "../../lib/shell-quote.ts";
import { SPAN_LIMIT, SPAN_LIST_PERIOD } from "../../lib/explore/limits.ts";
import type { SpanListFlags } from "./index.ts";
import { nextPageCommand } from "../../lib/list-page.ts";
import { readListFilters } from "../../lib/list-filters.ts";
import { joinQuery } from "../../lib/log/query.ts";

/** Fields `span list` asks of the spans dataset (API.md 17.3). */
export const SPAN_FIELDS = [
  "id",
  "span.op",
  "span.description",
  "span.duration",
  "timestamp",
  "trace",
  "transaction",
  "project",
] as const;

/** The service's sort for each `--sort`. */
export const SPAN_SORT_PARAM = { newest: "-timestamp", duration: "-span.duration" } as const;

/** The words that repeat this listing's flags (nextPageCommand quotes them). */
function pageWords(flags: SpanListFlags, query: string | undefined, filters: readonly string[]): string[] {
  const words: string[] = [];
  if (flags.sort !== "newest") words.push("-s", flags.sort);
  words.push(...filters);
  if (query !== undefined) words.push("-q", query);
  if (flags.trace) words.push("--trace", flags.trace);
  if (flags.limit !== SPAN_LIMIT.fallback) words.push("-n", String(flags.limit));
  return words;
}

/** `tracker span list`: resolve the project, page to the limit, remember the cursor, render. */
export default async function spanList(this: TrackerContext, flags: SpanListFlags, target?: string) {
  const f = readListFilters(this, flags, SPAN_LIST_PERIOD);
  // `acme/` (or `acme`) lists every project of the organization (project=-1), as log list does.
  const t = await resolveLogTarget(this, target, { command: "tracker span list", fresh: flags.fresh });
  const { org } = t;
  const query = flags.query?.trim() || undefined;
  const where = t.label;
  const key = cursorKey("span-list", where, {
    sort: flags.sort,
    query,
    trace: flags.trace,
    ...f.key,
  });
  if (continuesPastEnd(this, key, flags.cursor)) return writePastEnd(this, flags.json, `spans in ${where}`);
  const cursor = resolveCursor(this, key, flags.cursor);
  const page = await queryEvents(this, {
    org,
    dataset: "spans",
    fields: SPAN_FIELDS,
    projects: t.projectIds,
    query: joinQuery(flags.trace ? `trace:${flags.trace}` : undefined, f.envToken, query) ?? "",
    sort: SPAN_SORT_PARAM[flags.sort],
    period: f.win.window,
    limit: flags.limit,
    cursor,
  });
  saveCursor(this, key, page.nextCursor);
  const run = {
    view: SPAN_LIST_VIEW,
    items: page.data,
    options: undefined,
    page: { nextCursor: page.nextCursor, resumeAt: page.resumeAt },
    save: (c: string | undefined) => saveCursor(this, key, c),
  };
  if (flags.json) return writeListView(this, true, run);
  if (page.data.length === 0) {
    const filter = `${f.envText}${query ? ` matching ${quoteWord(query)}` : ""}`;
    const ofTrace = flags.trace ? ` of trace ${flags.trace}` : "";
    writeTip(
      this,
      cursor
        ? `No more spans in ${where}${ofTrace}${filter}.`
        : `No spans found in ${where}${ofTrace}${filter} in ${f.win.text}.`,
    );
    return;
  }
  await writeListView(this, false, run);
  const order = flags.sort === "duration" ? "slowest first" : "newest first";
  const n = page.data.length;
  const shown = `Showing ${n} span${n === 1 ? "" : "s"} from ${where} (${order}, ${f.win.brief}${f.envText}).`;
  writeListTip(
    this,
    page.nextCursor
      ? `${shown} More available; next page:\n  ${nextPageCommand("tracker span list", where, pageWords(flags, query, f.argv))}`
      : `${shown} End of results.`,
  );
}
