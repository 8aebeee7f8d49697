import { buildCommand, buildRouteMap } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { cursorFlag, freshFlag, globalFlags, limitFlag, targetPositional } from "../../lib/flags.ts";
import {
  ENVIRONMENT_HELP,
  environmentFlag,
  type FilterFlags,
  WINDOW_HELP,
  windowFlags,
} from "../../lib/filter-flags.ts";
import { describe, TARGET_HELP } from "../../lib/help.ts";
import { ValidationError } from "../../lib/errors.ts";
import { SPAN_LIMIT, SPAN_LIST_PERIOD } from "../../lib/explore/limits.ts";

/** Sort orders of `span list`. */
export const SPAN_SORTS = ["newest", "duration"] as const;

/** Flags of `span list`. */
export interface SpanListFlags extends FilterFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly fresh: boolean;
  readonly limit: number;
  readonly query?: string;
  readonly sort: (typeof SPAN_SORTS)[number];
  readonly trace?: string;
  readonly cursor?: string;
}

/** Parses `--trace`: a 32-hex trace id (any case). */
export function parseTraceId(raw: string): string {
  const text = raw.trim().toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(text)) {
    throw new ValidationError(`--trace must be a 32-character hex trace ID, got '${raw}'.`, "trace");
  }
  return text;
}

/** `span list`. */
export const spanListCommand = buildCommand<SpanListFlags, [string?], TrackerContext>({
  loader: () => import("./list.ts"),
  parameters: {
    positional: targetPositional("<org>/<project> or <project>", "org/project"),
    flags: {
      ...globalFlags,
      fresh: freshFlag,
      limit: limitFlag(SPAN_LIMIT),
      query: {
        kind: "parsed",
        placeholder: "<query>",
        parse: String,
        optional: true,
        brief: "Search filter, e.g. 'span.op:db.query'",
      },
      sort: {
        kind: "enum",
        values: SPAN_SORTS,
        default: "newest",
        brief: "newest (first) or duration (slowest first)",
      },
      ...windowFlags(SPAN_LIST_PERIOD),
      environment: environmentFlag,
      trace: {
        kind: "parsed",
        placeholder: "<trace-id>",
        parse: parseTraceId,
        optional: true,
        brief: "Only spans of this trace (32 hex)",
      },
      cursor: cursorFlag,
    },
    aliases: { n: "limit", q: "query", s: "sort", t: "period", e: "environment", c: "cursor" },
  },
  docs: {
    brief: "List spans",
    fullDescription: describe(
      `Lists spans of a project from the spans dataset, newest first (-s duration: slowest first), in the last ${SPAN_LIST_PERIOD} unless -t says otherwise. Pages at 100 per request up to --limit; -c last continues after the previous page of the same target and flags (window and environments included). ${WINDOW_HELP} ${ENVIRONMENT_HELP} ${TARGET_HELP}\n\n--json prints {"data": [span], "hasMore", "nextCursor" (only when a next page exists)}; each span is the service's row: id, span.op, span.description, span.duration (ms), timestamp, trace, transaction, project.`,
      [
        "tracker span list acme/web",
        "tracker span list -s duration -q 'span.op:db.query' -n 50",
        "tracker span list --trace aaaa1111bbbb2222cccc3333dddd4444 --json",
      ],
    ),
  },
});

/** Routes of `tracker span`. */
export const spanRoutes = buildRouteMap({
  routes: { list: spanListCommand },
  docs: {
    brief: "Inspect spans",
    fullDescription: describe("Work with spans (the timed operations inside traces).", [
      "tracker span list",
      "tracker span list -s duration",
    ]),
  },
});
