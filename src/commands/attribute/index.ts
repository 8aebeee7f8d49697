import { buildCommand, buildRouteMap } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import {
  ENVIRONMENT_HELP,
  environmentFlag,
  type FilterFlags,
  WINDOW_HELP,
  windowFlags,
} from "../../lib/filter-flags.ts";
import { cursorFlag, freshFlag, globalFlags, limitFlag, targetPositional } from "../../lib/flags.ts";
import { ATTRIBUTE_LIMIT, ATTRIBUTE_PERIOD } from "../../lib/explore/attribute-limits.ts";
import { describe } from "../../lib/help.ts";

/** Datasets of `attribute list` (kept here so help needs no API module; lib/api/attributes.ts agrees). */
export const ATTRIBUTE_DATASET_NAMES = ["spans", "logs", "errors"] as const;

/** Flags of `attribute list`. */
export interface AttributeListFlags extends FilterFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly fresh: boolean;
  readonly dataset: (typeof ATTRIBUTE_DATASET_NAMES)[number];
  readonly query?: string;
  readonly limit: number;
  readonly cursor?: string;
}

/** `attribute list`. */
export const attributeListCommand = buildCommand<AttributeListFlags, [string?], TrackerContext>({
  loader: () => import("./list.ts"),
  parameters: {
    positional: targetPositional("<org>/<project>, <org>/ (all projects) or <project>"),
    flags: {
      ...globalFlags,
      fresh: freshFlag,
      dataset: { kind: "enum", values: ATTRIBUTE_DATASET_NAMES, brief: "spans, logs or errors" },
      query: {
        kind: "parsed",
        placeholder: "<text>",
        parse: String,
        optional: true,
        brief: "Only names containing this text (case-sensitive)",
      },
      limit: limitFlag(ATTRIBUTE_LIMIT),
      ...windowFlags(ATTRIBUTE_PERIOD),
      environment: environmentFlag,
      cursor: cursorFlag,
    },
    aliases: { d: "dataset", q: "query", n: "limit", t: "period", e: "environment", c: "cursor" },
  },
  docs: {
    brief: "List the fields and tags a query can use, with their types",
    fullDescription: describe(
      `Lists what \`tracker query -F\`, -q and --sort can name in a dataset, with its type: for spans and logs the service's trace-item attributes (built-in "sentry" ones and the app's own "user" ones; the KEY column is what a query writes, e.g. tags[amount,number]), for errors the tag keys of error events (strings). One request per page of at most 100 (every type at once); -c last continues the previous page. Seen in the window (default ${ATTRIBUTE_PERIOD}) and the environments asked. Shell completion of \`query -F\` and --fields offers the keys the last listing saw. Target: <org>/<project>, <org>/, <project>, or nothing (TRACKER_ORG/TRACKER_PROJECT, defaults, DSN; an organization alone lists all its projects). ${WINDOW_HELP} ${ENVIRONMENT_HELP}\n\n--json prints {"data": [{"key", "name", "type", "source", "totalValues"?}], "hasMore", "nextCursor"?}; --format md a table for a language model.`,
      [
        "tracker attribute list acme/web --dataset spans",
        "tracker attribute list acme/ --dataset logs -q payment --json",
        "tracker attribute list --dataset errors -e production",
      ],
    ),
  },
});

/** Routes of `tracker attribute`. */
export const attributeRoutes = buildRouteMap({
  routes: { list: attributeListCommand },
  docs: {
    brief: "The fields and tags queries can use",
    fullDescription: describe(
      "Lists a dataset's query fields and tags with their types, so a query names real fields.",
      ["tracker attribute list --dataset spans"],
    ),
  },
});
