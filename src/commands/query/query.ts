import type { TrackerContext } from "../../context.ts";
import { isAggregate, queryEvents, queryTimeseries } from "../../lib/api/explore.ts";
import { ValidationError } from "../../lib/errors.ts";
import { QUERY_VIEW } from "../../lib/format/query-table.ts";
import { QUERY_INTERVAL_VIEW } from "../../lib/format/query-series.ts";
import { writeListTip, writePastEnd, writeTip } from "../../lib/output.ts";
import { writeDocView, writeListView } from "../../lib/view/render.ts";
import { resolveQueryScope } from "../../lib/resolve/query-scope.ts";
import { QUERY_PERIOD, QUERY_TOP_SERIES } from "../../lib/explore/limits.ts";
import { readListFilters } from "../../lib/list-filters.ts";
import { joinQuery } from "../../lib/log/query.ts";
import { formatDuration } from "../../lib/time-window.ts";
import type { QueryFlags } from "./index.ts";
import { withSlugHint } from "../../lib/resolve/not-found.ts";
import { continuesPastEnd, cursorKey, resolveCursor, saveCursor } from "../../lib/db/cursors.ts";

/** The sort as given, checked against the requested columns (the service would refuse it too). */
function checkSort(sort: string | undefined, fields: readonly string[]): string | undefined {
  // `-s=-count()` reaches here with its `=`: a leading `-` value needs `--sort=-x` or `-s=-x`.
  const text = sort?.trim().replace(/^=/, "");
  if (!text) return undefined;
  if (!fields.includes(text.replace(/^-/, ""))) {
    throw new ValidationError(
      `--sort must name a requested field or aggregate (with '-' for descending), got '${text}'. Requested: ${fields.join(", ")}.`,
      "sort",
    );
  }
  return text;
}

/** `tracker query`: one table query, or with --interval one time-series query; then render. */
export default async function query(this: TrackerContext, flags: QueryFlags, target?: string): Promise<void> {
  const fields = [...new Set(flags.field)];
  const sort = checkSort(flags.sort, fields);
  const userSearch = flags.query?.trim() || undefined;
  const f = readListFilters(this, flags, QUERY_PERIOD);
  const search = joinQuery(f.envToken, userSearch);
  if (flags.interval !== undefined) {
    const yAxis = fields.filter(isAggregate);
    if (yAxis.length === 0) {
      throw new ValidationError(
        "--interval draws aggregates over time: name at least one with -F, e.g. -F 'count()'.",
        "interval",
      );
    }
    const groupBy = fields.filter((f) => !isAggregate(f));
    const intervalSeconds = flags.interval;
    const scope = await resolveQueryScope(this, target, { command: "tracker query", fresh: flags.fresh });
    const answer = await withSlugHint(this, { org: scope.org }, () =>
      queryTimeseries(this, {
        org: scope.org,
        dataset: flags.dataset,
        yAxis,
        groupBy,
        topEvents: Math.min(flags.limit, QUERY_TOP_SERIES),
        sort: sort ?? `-${yAxis[0]}`,
        projects: scope.projects,
        query: search,
        period: f.win.window,
        intervalSeconds,
      }),
    );
    if (flags.json) return writeDocView(this, true, QUERY_INTERVAL_VIEW, answer);
    if (answer.timeSeries.length === 0) {
      writeTip(this, `No ${flags.dataset} in ${scope.where}${f.envText} in ${f.win.text}.`);
      return;
    }
    await writeDocView(this, false, QUERY_INTERVAL_VIEW, answer);
    const points = answer.timeSeries[0]?.values.length ?? 0;
    writeListTip(
      this,
      `${answer.timeSeries.length} series of ${points} buckets from ${scope.where} (${flags.dataset}, ${f.win.brief}${f.envText}, every ${formatDuration(flags.interval * 1000)}).`,
    );
    return;
  }
  const scope = await resolveQueryScope(this, target, { command: "tracker query", fresh: flags.fresh });
  const key = cursorKey("query", `${scope.org}/${scope.projects.join(",")}`, {
    dataset: flags.dataset,
    field: fields.join("\n"),
    query: userSearch,
    sort,
    ...f.key,
  });
  if (continuesPastEnd(this, key, flags.cursor))
    return writePastEnd(this, flags.json, `${flags.dataset} rows in ${scope.where}`);
  const cursor = resolveCursor(this, key, flags.cursor);
  const page = await withSlugHint(this, { org: scope.org }, () =>
    queryEvents(this, {
      org: scope.org,
      dataset: flags.dataset,
      fields,
      projects: scope.projects,
      query: search,
      sort,
      period: f.win.window,
      limit: flags.limit,
      cursor,
    }),
  );
  saveCursor(this, key, page.nextCursor);
  const run = {
    view: QUERY_VIEW,
    items: page.data,
    options: { fields, meta: page.meta },
    page: { nextCursor: page.nextCursor, resumeAt: page.resumeAt },
    extra: { meta: page.meta },
    save: (c: string | undefined) => saveCursor(this, key, c),
  };
  if (flags.json) return writeListView(this, true, run);
  if (page.data.length === 0) {
    writeTip(this, `No ${flags.dataset} rows in ${scope.where}${f.envText} in ${f.win.text}.`);
    return;
  }
  await writeListView(this, false, run);
  const n = page.data.length;
  const more = page.nextCursor ? ` More: run the same command with -c last.` : "";
  writeListTip(
    this,
    `${n} row${n === 1 ? "" : "s"} from ${scope.where} (${flags.dataset}, ${f.win.brief}${f.envText}).${more}`,
  );
}
