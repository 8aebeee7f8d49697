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
import { SPAN_LIMIT, SPAN_LIST_PERIOD, SPAN_VIEW_PERIOD } from "../../lib/explore/limits.ts";
import { parseTraceId } from "../../lib/trace/trace-id.ts";

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

export { parseTraceId };

/** `span list`. */
export const spanListCommand = buildCommand<SpanListFlags, [string?], TrackerContext>({
  loader: () => import("./list.ts"),
  parameters: {
    positional: targetPositional("<org>/<project>, <org>/ (all projects) or <project>", "org/project"),
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
      `Lists spans of a project (of every project with <org>/) from the spans dataset, newest first (-s duration: slowest first), in the last ${SPAN_LIST_PERIOD} unless -t says otherwise. Pages at 100 per request up to --limit; -c last continues after the previous page of the same target and flags (window and environments included). ${WINDOW_HELP} ${ENVIRONMENT_HELP} ${TARGET_HELP}\n\n--json prints {"data": [span], "hasMore", "nextCursor" (only when a next page exists)}; each span is the service's row: id, span.op, span.description, span.duration (ms), timestamp, trace, transaction, project.`,
      [
        "tracker span list acme/web",
        "tracker span list -s duration -q 'span.op:db.query' -n 50",
        "tracker span list --trace aaaa1111bbbb2222cccc3333dddd4444 --json",
      ],
    ),
  },
});

/** Flags of `span view`. */
export interface SpanViewFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly fresh: boolean;
  readonly trace?: string;
}

/** `span view`. */
export const spanViewCommand = buildCommand<SpanViewFlags, [string, string?], TrackerContext>({
  loader: () => import("./view.ts"),
  parameters: {
    positional: {
      kind: "tuple",
      parameters: [
        { placeholder: "span-id", brief: "The span's ID (16 hex)", parse: String },
        {
          placeholder: "org/project",
          brief: "Its project (auto-detected when omitted)",
          parse: String,
          optional: true,
        },
      ],
    },
    flags: {
      ...globalFlags,
      fresh: freshFlag,
      trace: {
        kind: "parsed",
        placeholder: "<trace-id>",
        parse: parseTraceId,
        optional: true,
        brief: "The span's trace (skips looking it up)",
      },
    },
  },
  docs: {
    brief: "Show every attribute of one span",
    fullDescription: describe(
      `Shows a span's attributes (op, description, duration, status, release, environment, custom attributes…). Without --trace its trace is first looked up in the spans dataset (the last ${SPAN_VIEW_PERIOD}); with --trace it is one request. --json prints {"spanId", "traceId", "org", "project", "timestamp", "attributes": [{"name", "type", "value"}]}. ${TARGET_HELP}`,
      [
        "tracker span view b1c2d3e4f5a6b7c8 acme/web",
        "tracker span view b1c2d3e4f5a6b7c8 --trace aaaa1111bbbb2222cccc3333dddd4444 --json",
      ],
    ),
  },
});

/** Routes of `tracker span`. */
export const spanRoutes = buildRouteMap({
  routes: { list: spanListCommand, view: spanViewCommand },
  docs: {
    brief: "Inspect spans",
    fullDescription: describe("Work with spans (the timed operations inside traces).", [
      "tracker span list",
      "tracker span list -s duration",
    ]),
  },
});
