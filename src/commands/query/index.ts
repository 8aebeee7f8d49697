import { buildCommand } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { cursorFlag, freshFlag, globalFlags, limitFlag, targetPositional } from "../../lib/flags.ts";
import {
  ENVIRONMENT_HELP,
  environmentFlag,
  type FilterFlags,
  WINDOW_HELP,
  windowFlags,
} from "../../lib/filter-flags.ts";
import { describe } from "../../lib/help.ts";
import { QUERY_LIMIT, QUERY_PERIOD, QUERY_TOP_SERIES } from "../../lib/explore/limits.ts";
import { parseField, parseInterval } from "../../lib/explore/parse.ts";

/** Datasets of `tracker query` (API.md 17.1; kept here so help needs no API module). */
export const QUERY_DATASET_NAMES = ["errors", "spans", "logs"] as const;

/** Flags of `tracker query`. */
export interface QueryFlags extends FilterFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly fresh: boolean;
  readonly dataset: (typeof QUERY_DATASET_NAMES)[number];
  readonly field: readonly string[];
  readonly query?: string;
  readonly sort?: string;
  readonly limit: number;
  readonly interval?: number;
  readonly cursor?: string;
}

export { parseField, parseInterval };

/** `tracker query` (also `tracker explore`). */
export const queryCommand = buildCommand<QueryFlags, [string?], TrackerContext>({
  loader: () => import("./query.ts"),
  parameters: {
    positional: targetPositional("<org>/<project>, <org>/ (all projects) or <project>"),
    flags: {
      ...globalFlags,
      fresh: freshFlag,
      dataset: { kind: "enum", values: QUERY_DATASET_NAMES, brief: "errors, spans or logs" },
      field: {
        kind: "parsed",
        placeholder: "<field>",
        parse: parseField,
        variadic: true,
        brief: "A field or aggregate, repeatable: -F transaction -F 'p95(span.duration)'",
      },
      query: {
        kind: "parsed",
        placeholder: "<query>",
        parse: String,
        optional: true,
        brief: "Search filter, e.g. 'environment:production'",
      },
      sort: {
        kind: "parsed",
        placeholder: "<field>",
        parse: String,
        optional: true,
        brief: "A requested field or aggregate; '-' first for descending: --sort=-count()",
      },
      ...windowFlags(QUERY_PERIOD),
      environment: environmentFlag,
      limit: limitFlag(QUERY_LIMIT),
      cursor: cursorFlag,
      interval: {
        kind: "parsed",
        placeholder: "<duration>",
        parse: parseInterval,
        optional: true,
        brief: "Time series in buckets of this size (30s, 5m, 1h, 1d) instead of a table",
      },
    },
    aliases: { F: "field", q: "query", s: "sort", t: "period", e: "environment", n: "limit", c: "cursor" },
  },
  docs: {
    brief: "Query events, spans or logs: fields, aggregates, time series",
    fullDescription: describe(
      `Runs one query of the service's explore API over a dataset. -F names the columns: plain fields (transaction, release, span.op) and aggregates (count(), count_unique(user), avg|sum|min|max|p50|p75|p90|p95|p99(span.duration), epm()); with an aggregate present the plain fields group the rows. Numbers carry the units the service reports (245 ms). --interval asks for time series instead: one sparkline per aggregate (per group of the plain fields, top ${QUERY_TOP_SERIES}) with its min, max and total (no total for averages, percentiles and rates). --sort names one requested column, '-' first for descending (-s '-count()' or --sort=-count()). A table pages like the lists: -c <nextCursor>, or -c last to continue after the previous page of the same query. An unknown field or function is the service's 400, shown with its detail. Target: <org>/<project>, <org>/ for every project, <project>, or nothing (TRACKER_ORG/TRACKER_PROJECT, defaults, DSN; an organization alone queries all its projects). ${WINDOW_HELP} ${ENVIRONMENT_HELP}\n\n--json prints the service's answer: {"data": [row], "meta": {"fields", "units", ...}, "hasMore", "nextCursor"?} for a table, {"timeSeries": [{"yAxis", "groupBy"?, "values": [{"timestamp" (ms), "value", ...}], "meta"}], "meta"} with --interval.`,
      [
        "tracker query acme/web --dataset spans -F transaction -F 'p95(span.duration)' -F 'count()' -s '-count()'",
        "tracker query acme/ --dataset errors -F release -F 'count()' -q 'level:error'",
        "tracker explore --dataset spans -F 'count()' --interval 1h -t 24h",
        "tracker query acme/web --dataset errors -F 'count()' --start 2026-11-20T14:00 --end 2026-11-20T15:30 -e production",
      ],
    ),
  },
});
