import { buildCommand, buildRouteMap } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { cursorFlag, freshFlag, globalFlags, parseIntInRange, targetPositional } from "../../lib/flags.ts";
import {
  ENVIRONMENT_HELP,
  environmentFlag,
  type FilterFlags,
  WINDOW_HELP,
  windowFlags,
} from "../../lib/filter-flags.ts";
import { describe, TARGET_HELP } from "../../lib/help.ts";
import {
  FOLLOW_INTERVAL_MS,
  LOG_LIMIT,
  LOG_LIST_PERIOD,
  LOG_LOOKUP_PERIOD,
  LOG_SORTS,
  parseInterval,
} from "../../lib/log/options.ts";

/** Flags of `log list`. */
export interface LogListFlags extends FilterFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly fresh: boolean;
  /** Undefined when not given: LOG_LIMIT.fallback; with `--follow`, the size of the first page. */
  readonly limit?: number;
  readonly query?: string;
  readonly sort: (typeof LOG_SORTS)[number];
  readonly trace?: string;
  readonly follow: boolean;
  /** Milliseconds between follow polls. */
  readonly interval: number;
  readonly cursor?: string;
}

/** The `log list --json` shape, shown in its help (the contract scripts rely on). */
export const LOG_JSON_HELP = `--json prints {"data": [log], "hasMore", "nextCursor" (only when a next page exists)}, each log
  {"id", "timestamp", "timestampPrecise" (nanoseconds as a string), "severity", "severityNumber",
   "message", "traceId", "spanId", "project", "projectId"}.
With --follow, --json prints JSON Lines instead: one log object per line, as each arrives.`;

/** `log list` (also reachable as `tracker logs`). */
export const logListCommand = buildCommand<LogListFlags, [string?], TrackerContext>({
  loader: () => import("./list.ts"),
  parameters: {
    positional: targetPositional("<org>/<project>, <org>/ (all projects) or <project>", "org/project"),
    flags: {
      ...globalFlags,
      fresh: freshFlag,
      limit: {
        kind: "parsed",
        placeholder: "<count>",
        parse: (raw: string) => parseIntInRange(raw, "limit", LOG_LIMIT.min, LOG_LIMIT.max),
        optional: true,
        brief: `Number of logs (${LOG_LIMIT.min}-${LOG_LIMIT.max}, default ${LOG_LIMIT.fallback}; with --follow: how many recent logs to show before following)`,
      },
      query: {
        kind: "parsed",
        placeholder: "<query>",
        parse: String,
        optional: true,
        brief: "Search filter, e.g. 'severity:error' or free text",
      },
      ...windowFlags(LOG_LIST_PERIOD),
      environment: environmentFlag,
      sort: { kind: "enum", values: LOG_SORTS, default: "newest", brief: "newest or oldest first" },
      trace: {
        kind: "parsed",
        placeholder: "<trace-id>",
        parse: String,
        optional: true,
        brief: "Only logs of this trace (32 hex)",
      },
      follow: { kind: "boolean", default: false, brief: "Keep printing new logs until Ctrl-C" },
      interval: {
        kind: "parsed",
        placeholder: "<duration>",
        parse: parseInterval,
        default: `${FOLLOW_INTERVAL_MS.fallback / 1000}s`,
        brief: "Time between polls with --follow: 1s to 1h (2s, 30s, 1m)",
      },
      cursor: cursorFlag,
    },
    aliases: { n: "limit", q: "query", t: "period", e: "environment", s: "sort", f: "follow", c: "cursor" },
  },
  docs: {
    brief: "List recent logs",
    fullDescription: describe(
      `Lists the logs of the last ${LOG_LIST_PERIOD} (-t for another window), newest first, up to --limit (at most 100 per request). <org>/ lists every project of the organization. --follow prints the newest logs, then polls every --interval and prints only new ones, oldest first, until Ctrl-C; -n sets how many recent logs come first, as with tail -f -n; a failing poll is retried and reported once (--follow takes a relative -t only). -c last continues after the previous page of the same query, window and environments. ${WINDOW_HELP} ${ENVIRONMENT_HELP} ${TARGET_HELP}\n\n${LOG_JSON_HELP}`,
      [
        "tracker log list acme/web",
        "tracker log list acme/ -q 'severity:error' -t 1h",
        "tracker log list -f --interval 5s",
        "tracker log list --trace aaaa1111bbbb2222cccc3333dddd4444 --json",
      ],
    ),
  },
});

/** Flags of `log view`. */
export interface LogViewFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly fresh: boolean;
}

/** `log view`. */
export const logViewCommand = buildCommand<LogViewFlags, [string, string?], TrackerContext>({
  loader: () => import("./view.ts"),
  parameters: {
    flags: { ...globalFlags, fresh: freshFlag },
    positional: {
      kind: "tuple",
      parameters: [
        { placeholder: "log_id", brief: "32-hex log ID (from log list --json or piped)", parse: String },
        {
          placeholder: "org/project",
          brief: "<org>/<project>, <org>/ (all projects) or <project>",
          parse: String,
          optional: true,
        },
      ],
    },
  },
  docs: {
    brief: "Show every attribute of one log",
    fullDescription: describe(
      `Shows one log of the last ${LOG_LOOKUP_PERIOD} with all of its documented attributes (time, severity, message, trace, span, project, environment, release, SDK, code location). ${TARGET_HELP}\n\n--json prints the log as the service sent it: {"sentry.item_id", "timestamp", "timestamp_precise", "severity", "message", "trace", ...}.`,
      [
        "tracker log view 0123456789abcdef0123456789abcdef acme/web",
        "tracker log view <log_id> acme/ --json",
      ],
    ),
  },
});

/** Routes of `tracker log`. */
export const logRoutes = buildRouteMap({
  routes: { list: logListCommand, view: logViewCommand },
  docs: {
    brief: "Search and follow logs",
    fullDescription: describe("Work with structured logs.", [
      "tracker log list",
      "tracker log list -f",
      "tracker log view <log_id>",
    ]),
  },
});
