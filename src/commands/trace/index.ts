import { buildCommand, buildRouteMap } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { cursorFlag, freshFlag, globalFlags, limitFlag } from "../../lib/flags.ts";
import { describe, TARGET_HELP } from "../../lib/help.ts";

/** Sort orders of `trace list`. */
export const TRACE_SORTS = ["date", "duration"] as const;
/** Default and bounds of `trace list --limit`. */
export const TRACE_LIMIT = { min: 1, max: 1000, fallback: 20 } as const;

/** Flags of `trace list`. */
export interface TraceListFlags {
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
    positional: {
      kind: "tuple",
      parameters: [
        { placeholder: "org/project", brief: "<org>/<project> or <project>", parse: String, optional: true },
      ],
    },
    flags: {
      ...globalFlags,
      fresh: freshFlag,
      limit: limitFlag(TRACE_LIMIT),
      query: {
        kind: "parsed",
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
      cursor: cursorFlag,
    },
    aliases: { n: "limit", q: "query", s: "sort", c: "cursor" },
  },
  docs: {
    brief: "List recent traces",
    fullDescription: describe(`Lists recent transactions with their trace IDs. ${TARGET_HELP}`, [
      "tracker trace list acme/web",
      "tracker trace list -s duration -n 50",
      "tracker trace list -c last --json",
    ]),
  },
});

/** Routes of `tracker trace`. */
export const traceRoutes = buildRouteMap({
  routes: {
    list: traceListCommand,
    view: buildCommand<
      { json: boolean; verbose: boolean; fresh: boolean },
      [string, string?],
      TrackerContext
    >({
      loader: () => import("./view.ts"),
      parameters: {
        flags: { ...globalFlags, fresh: freshFlag },
        positional: {
          kind: "tuple",
          parameters: [
            {
              placeholder: "trace_id",
              brief: "32-hex trace ID, or an 8-character prefix from trace list",
              parse: String,
            },
            {
              placeholder: "org/project",
              brief: "Target (auto-detected when omitted)",
              parse: String,
              optional: true,
            },
          ],
        },
      },
      docs: {
        brief: "Show the span tree of a trace",
        fullDescription: describe(
          "Shows the full span tree of one trace. --json prints nested objects {spanId, parentSpanId, op, description, startTimestamp, timestamp, durationMs, selfTimeMs, project, errors, children}.",
          ["tracker trace view aaaa1111bbbb2222cccc3333dddd4444", "tracker trace view aaaa1111 --json"],
        ),
      },
    }),
  },
  docs: {
    brief: "Inspect traces",
    fullDescription: describe("Work with performance traces.", [
      "tracker trace list",
      "tracker trace view <trace_id>",
    ]),
  },
});
