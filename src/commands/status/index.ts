import { buildCommand } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { freshFlag, globalFlags, limitFlag, parseSince } from "../../lib/flags.ts";
import { describe } from "../../lib/help.ts";

/** Default and bounds of `status --limit` (issues shown per section; one request each). */
export const STATUS_LIMIT = { min: 1, max: 100, fallback: 10 } as const;

/** Flags of `tracker status`. */
export interface StatusFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly fresh: boolean;
  readonly limit: number;
  readonly markSeen: boolean;
  /** Start of the "new" window (ms since the epoch), instead of the last run's time. */
  readonly since?: number;
}

/** `tracker status`: what is on my plate, across organizations. */
export const statusCommand = buildCommand<StatusFlags, string[], TrackerContext>({
  loader: () => import("./status.ts"),
  parameters: {
    flags: {
      ...globalFlags,
      fresh: freshFlag,
      limit: limitFlag(STATUS_LIMIT),
      markSeen: {
        kind: "boolean",
        default: false,
        brief:
          'Remember this run as the start of the next one\'s "new" window (automatic only on an interactive terminal)',
      },
      since: {
        kind: "parsed",
        placeholder: "<time>",
        parse(this: TrackerContext, raw: string) {
          return parseSince(raw, this.now());
        },
        optional: true,
        brief:
          "Show issues new since this time (2h, 3d, 1w ago, or an ISO 8601 date/time) instead of since the last run",
      },
    },
    aliases: { n: "limit" },
    positional: {
      kind: "array",
      parameter: { placeholder: "org", brief: "Organization slugs (default: all of yours)", parse: String },
    },
  },
  docs: {
    brief: "Show what is on your plate: assigned, regressed and new issues",
    fullDescription: describe(
      `For each organization (the named ones, else every organization you belong to), three sections: unresolved issues assigned to you or your teams (is:unresolved assigned:[me, my_teams], any project), issues that regressed (is:unresolved is:regressed) and issues new in your projects since the last \`tracker status\` of that organization (is:unresolved firstSeen:>=<time>; the first run looks back 24 hours, never more than 90 days), up to -n issues each (default ${STATUS_LIMIT.fallback}), with how many match when the service counts them. An interactive run (stdin and stdout terminals, no --json, not agent or CI mode) remembers its time per organization as the start of the next one's window; --json, piped output, agents and the MCP tool only read, unless --mark-seen says to remember. --since <time> asks for another window (and remembers nothing without --mark-seen).

Piped, the output is rows only: organization, section (assigned, regressed, new), ID, title, events, last seen, tab-separated.

The searches of every organization are sent at once (up to 8 organizations together): one round trip. Without organization arguments, the organizations come from the list cached by an earlier command (e.g. \`tracker org list\`); when none is cached, or with --fresh, they are listed first, which costs one or two more round trips.

--json prints {"data": [{"org", "since", "assigned", "regressed", "new"}], "errors": [{"org", "message"}]} where each section is {"issues": [Issue], "total"} ("total" only when the service reports it; "errors" only when an organization failed).`,
      [
        "tracker status",
        "tracker status acme globex",
        "tracker status --json",
        "tracker status --since 2h",
        "tracker status --json --mark-seen",
        "tracker status -n 25",
      ],
    ),
  },
});
