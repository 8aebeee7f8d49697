import { buildCommand, buildRouteMap } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { cursorFlag, freshFlag, globalFlags, limitFlag, targetPositional, webFlag } from "../../lib/flags.ts";
import {
  ENVIRONMENT_HELP,
  environmentFlag,
  type FilterFlags,
  WINDOW_HELP,
  windowFlags,
} from "../../lib/filter-flags.ts";
import { describe, TARGET_HELP } from "../../lib/help.ts";
import { LOG_LIMIT } from "../../lib/log/options.ts";
import { COLLAPSE_RUN_MIN } from "../../lib/trace/collapse.ts";
import { RECENT_TRACES_TTL_DAYS, TRACE_LIMIT, TRACE_LIST_PERIOD } from "../../lib/trace/windows.ts";

/** Sort orders of `trace list`. */
export const TRACE_SORTS = ["date", "duration"] as const;
/** Flags of `trace list`. */
export interface TraceListFlags extends FilterFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly fresh: boolean;
  readonly limit: number;
  readonly query?: string;
  readonly sort: (typeof TRACE_SORTS)[number];
  readonly cursor?: string;
}

/** `trace list` (also reachable as `tracker traces`). */
export const traceListCommand = buildCommand<TraceListFlags, [string?], TrackerContext>({
  loader: () => import("./list.ts"),
  parameters: {
    positional: targetPositional("<org>/<project>, <org>/ (all projects) or <project>", "org/project"),
    flags: {
      ...globalFlags,
      fresh: freshFlag,
      limit: limitFlag(TRACE_LIMIT),
      query: {
        kind: "parsed",
        placeholder: "<query>",
        parse: String,
        optional: true,
        brief: "Search filter, e.g. 'transaction:\"GET /api\"'",
      },
      sort: {
        kind: "enum",
        values: TRACE_SORTS,
        default: "date",
        brief: "date (newest first) or duration (slowest first)",
      },
      ...windowFlags(TRACE_LIST_PERIOD),
      environment: environmentFlag,
      cursor: cursorFlag,
    },
    aliases: { n: "limit", q: "query", s: "sort", t: "period", e: "environment", c: "cursor" },
  },
  docs: {
    brief: "List recent traces",
    fullDescription: describe(
      `Lists transactions (of one project, or of every project with <org>/) of the last ${TRACE_LIST_PERIOD} (-t for another window) with their trace IDs, paging through the API (at most 100 per request) up to --limit. The position after each listing is saved per org/project, sort, query, window and environments; -c last continues from it. ${WINDOW_HELP} ${ENVIRONMENT_HELP} ${TARGET_HELP}\n\n--json prints {"data": [trace], "nextCursor" (only when a next page exists), "hasMore"}; each trace has traceId, transaction, durationMs, timestamp, project and the API's own columns (trace, id, span.duration, or transaction.duration from older servers, ...).`,
      [
        "tracker trace list acme/web",
        "tracker trace list -s duration -n 50",
        "tracker trace list acme/web -t '>=2026-11-20' -e production",
        "tracker trace list -c last --json",
      ],
    ),
  },
});

/** Flags of `trace view`. */
export interface TraceViewFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly fresh: boolean;
  readonly web: boolean;
  /** Also fetch the trace's logs and show them under their spans (view-logs.ts). */
  readonly logs?: boolean;
}

/** The `trace view --json` shape, shown in its help (the contract scripts rely on). */
export const TRACE_VIEW_JSON_HELP = `--json prints one object:
  {"traceId", "org", "spanCount", "errorCount", "durationMs", "projects": [slug], "roots": [span],
   "errors": [{"eventId", "issueId", "shortId", "level", "title", "project", "culprit", "timestamp"}]}
where each span is
  {"spanId", "parentSpanId" (null on roots), "op", "description", "project",
   "startTimestamp", "timestamp" (start and end, Unix seconds as floats),
   "durationMs", "selfTimeMs" (duration not covered by children),
   "isTransaction", "orphan" (a root whose parent span is not in the trace),
   "errors": [{"eventId", "issueId", "shortId", "level", "title"}], "children": [span]}.
Children are ordered by start time; orphaned spans appear as extra roots. The top-level "errors"
are errors of the trace whose span is not in it; "errorCount" counts both kinds.`;

/** `trace view`. */
export const traceViewCommand = buildCommand<TraceViewFlags, [string, string?], TrackerContext>({
  loader: () => import("./view-logs.ts"),
  parameters: {
    flags: {
      ...globalFlags,
      fresh: freshFlag,
      web: webFlag,
      logs: { kind: "boolean", optional: true, brief: "Also show the trace's logs, under their spans" },
    },
    aliases: { w: "web" },
    positional: {
      kind: "tuple",
      parameters: [
        {
          placeholder: "trace_id",
          brief: "32-hex trace ID, or an 8-character prefix from trace list",
          parse: String,
        },
        {
          placeholder: "org",
          brief:
            "<org> or <org>/<project> to look in (default: where trace list saw it, then TRACKER_ORG, defaults, DSN)",
          parse: String,
          optional: true,
        },
      ],
    },
  },
  docs: {
    brief: "Show the span tree of a trace",
    fullDescription: describe(
      `Shows the full span tree of one trace: indentation by parent, op, description, duration, self time of spans with children, and errors (marked with ✖). Runs of ${COLLAPSE_RUN_MIN} or more identical sibling spans are shown as one line with a count; --web opens the trace's page in the browser instead. A prefix of at least 8 characters is resolved among the traces listed by \`tracker trace list\` in the last ${RECENT_TRACES_TTL_DAYS} days. The organization is the one given, else the one the trace was listed in, else TRACKER_ORG, stored defaults or a DSN.\n\n${TRACE_VIEW_JSON_HELP}`,
      [
        "tracker trace view aaaa1111bbbb2222cccc3333dddd4444 acme",
        "tracker trace view aaaa1111 --json",
        "tracker trace view aaaa1111 --web",
      ],
    ),
  },
});

/** Flags of `trace logs`. */
export interface TraceLogsFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly fresh: boolean;
  readonly limit: number;
}

/** `trace logs`: the logs of one trace. */
export const traceLogsCommand = buildCommand<TraceLogsFlags, [string, string?], TrackerContext>({
  loader: () => import("./logs.ts"),
  parameters: {
    flags: { ...globalFlags, fresh: freshFlag, limit: limitFlag(LOG_LIMIT) },
    aliases: { n: "limit" },
    positional: {
      kind: "tuple",
      parameters: [
        {
          placeholder: "trace_id",
          brief: "32-hex trace ID, or an 8-character prefix from trace list",
          parse: String,
        },
        {
          placeholder: "org",
          brief: "<org> to look in (default: as trace view)",
          parse: String,
          optional: true,
        },
      ],
    },
  },
  docs: {
    brief: "Show the logs of a trace",
    fullDescription: describe(
      `Shows the logs written during one trace, across all its projects, oldest first and grouped under the span that was active (logs without a span in a group of their own). One request; -n for more than ${LOG_LIMIT.fallback}. Piped: one tab-separated row per log (time, severity, span id, message, log id).\n\n--json prints {"traceId", "org", "data": [log], "hasMore"}; a log is as in \`tracker log list --json\`.`,
      ["tracker trace logs aaaa1111bbbb2222cccc3333dddd4444 acme", "tracker trace logs aaaa1111 --json"],
    ),
  },
});

/** Routes of `tracker trace`. */
export const traceRoutes = buildRouteMap({
  routes: {
    list: traceListCommand,
    view: traceViewCommand,
    logs: traceLogsCommand,
  },
  docs: {
    brief: "Inspect traces",
    fullDescription: describe("Work with performance traces.", [
      "tracker trace list",
      "tracker trace view <trace_id>",
    ]),
  },
});
