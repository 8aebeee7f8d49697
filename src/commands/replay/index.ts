/** `tracker replay`: session replays (who, when, where, how long, errors, what they did). */
import { buildCommand, buildRouteMap } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import {
  cursorFlag,
  freshFlag,
  globalFlags,
  limitFlag,
  parsePeriod,
  targetPositional,
} from "../../lib/flags.ts";
import { describe, TARGET_HELP } from "../../lib/help.ts";
import { REPLAY_LIMIT, REPLAY_PERIOD } from "./defaults.ts";

/** Flags of `replay list`. */
export interface ReplayListFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly fresh: boolean;
  readonly limit: number;
  readonly query?: string;
  readonly period: string;
  readonly cursor?: string;
}

/** Flags of `replay view`. */
export interface ReplayViewFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly fresh: boolean;
}

/** Routes of `tracker replay`. */
export const replayRoutes = buildRouteMap({
  routes: {
    list: buildCommand<ReplayListFlags, [string?], TrackerContext>({
      loader: () => import("./list.ts"),
      parameters: {
        positional: targetPositional("<org>/<project> or <project>"),
        flags: {
          ...globalFlags,
          fresh: freshFlag,
          limit: limitFlag(REPLAY_LIMIT),
          query: {
            kind: "parsed",
            placeholder: "<query>",
            parse: String,
            optional: true,
            brief: "Replay search, e.g. 'count_errors:>0' or 'user.email:jane@example.com'",
          },
          period: {
            kind: "parsed",
            placeholder: "<period>",
            parse: parsePeriod,
            default: REPLAY_PERIOD,
            brief: "Window: <n>h, <n>d or <n>w",
          },
          cursor: cursorFlag,
        },
        aliases: { n: "limit", q: "query", t: "period", c: "cursor" },
      },
      docs: {
        brief: "List session replays",
        fullDescription: describe(
          `Lists the project's session replays, newest first: when, the replay ID, the user, how long, how many errors and the first URL. --json prints {"data": [{"id", "projectId", "user", "startedAt", "finishedAt", "duration" (seconds), "url", "urls", "errors", "rageClicks", "environment", "browser", "os"}], "hasMore", "nextCursor"}. ${TARGET_HELP}`,
          ["tracker replay list acme/web", "tracker replay list -q 'count_errors:>0' -t 24h --json"],
        ),
      },
    }),
    view: buildCommand<ReplayViewFlags, [string, string?], TrackerContext>({
      loader: () => import("./view.ts"),
      parameters: {
        flags: { ...globalFlags, fresh: freshFlag },
        positional: {
          kind: "tuple",
          parameters: [
            { placeholder: "replay-id", brief: "The replay's ID (32 hex)", parse: String },
            {
              placeholder: "org/project",
              brief: "Its project (auto-detected when omitted)",
              parse: String,
              optional: true,
            },
          ],
        },
      },
      docs: {
        brief: "Show a replay: who, when, pages, errors and the session's breadcrumbs",
        fullDescription: describe(
          `Shows one replay and what the user did (navigation, clicks, console messages: the session's breadcrumbs, in time order), in one round trip when the project is known. --json prints the list row plus "org", "project", "allUrls", "errorIds", "traceIds", "releases" and "breadcrumbs": [{"timestamp", "category", "level", "message"}] (for agents: --format md). ${TARGET_HELP}`,
          [
            "tracker replay view 3c5e1a7b9d2f4e6a8b0c1d2e3f4a5b6c acme/web",
            "tracker replay view 3c5e1a7b9d2f4e6a8b0c1d2e3f4a5b6c --json",
          ],
        ),
      },
    }),
  },
  docs: {
    brief: "Read session replays",
    fullDescription: describe("What users did in the sessions where errors and feedback came from.", [
      "tracker replay list acme/web",
      "tracker replay view <replay-id> acme/web",
    ]),
  },
});
