import { buildCommand } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { cursorFlag, freshFlag, globalFlags, limitFlag } from "../../lib/flags.ts";
import { describe } from "../../lib/help.ts";

/** Default and bounds of `issue tags <issue> <key> --limit` (the service keeps at most 1000 values). */
export const TAG_VALUES_LIMIT = { min: 1, max: 1000, fallback: 25 } as const;

/** Flags of `issue tags`. */
export interface IssueTagsFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly fresh: boolean;
  readonly limit: number;
  readonly cursor?: string;
}

/** `issue tags <issue> [<key>]`. */
export const tagsCommand = buildCommand<IssueTagsFlags, [string, string?], TrackerContext>({
  loader: () => import("./tags.ts"),
  parameters: {
    flags: {
      ...globalFlags,
      fresh: freshFlag,
      limit: limitFlag(TAG_VALUES_LIMIT),
      cursor: cursorFlag,
    },
    aliases: { n: "limit", c: "cursor" },
    positional: {
      kind: "tuple",
      parameters: [
        { placeholder: "issue", brief: "The issue (as in issue view)", parse: String },
        { placeholder: "key", brief: "A tag key: list all its values", parse: String, optional: true },
      ],
    },
  },
  docs: {
    brief: "Show an issue's tags and how its events split across their values",
    fullDescription: describe(
      'Without a key: each tag key of the issue with its top values and their share of the events (environment  production 82% · staging 18%). With a key: all values of that key with their event counts, most frequent first, 100 per request up to --limit; -c last continues after the previous page. --limit and --cursor apply to the key form only.\n\n--json prints the service\'s data: [{"key", "name", "totalValues", "topValues": [{"value", "count", "firstSeen", "lastSeen", ...}]}] without a key; {"data": [{"value", "count", "firstSeen", "lastSeen", ...}], "hasMore", "nextCursor"?} with one.',
      [
        "tracker issue tags WEB-4Y",
        "tracker issue tags WEB-4Y browser -n 100",
        "tracker issue tags acme/4001 release --json",
      ],
    ),
  },
});
