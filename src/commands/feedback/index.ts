/** `tracker feedback`: user feedback (what people wrote, with the page, replay and error it came with). */
import { buildCommand, buildRouteMap } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { cursorFlag, globalFlags, limitFlag, parsePeriod, targetPositional } from "../../lib/flags.ts";
import { describe, TARGET_HELP } from "../../lib/help.ts";
import { FEEDBACK_LIMIT, FEEDBACK_PERIOD, FEEDBACK_STATUS_VALUES } from "./defaults.ts";

/** Flags of `feedback list`. */
export interface FeedbackListFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly status: (typeof FEEDBACK_STATUS_VALUES)[number];
  readonly limit: number;
  readonly period: string;
  readonly cursor?: string;
}

/** Flags of `feedback view`. */
export interface FeedbackViewFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly fresh: boolean;
}

/** Flags of `feedback resolve|unresolve|spam`. */
export interface FeedbackChangeFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly dryRun: boolean;
}

const feedbackArg = {
  placeholder: "feedback",
  brief: "The feedback's short ID (WEB-5F), numeric ID or org/SHORT-ID",
  parse: String,
} as const;

const CHANGE_JSON =
  'Several feedback ids may be given. --dry-run prints what would change and sends nothing. --json prints {"changed": [Issue], "failed": [{"issue", "error"}], "dryRun": bool} (with --dry-run also "requests": [{"method", "path", "body"}], the requests it would send).';

function changeCommand(
  loader: () => Promise<{ default: unknown }>,
  brief: string,
  text: string,
  example: string,
) {
  return buildCommand<FeedbackChangeFlags, string[], TrackerContext>({
    loader: loader as never,
    parameters: {
      flags: {
        ...globalFlags,
        dryRun: { kind: "boolean", default: false, brief: "Print what would change; send nothing" },
      },
      positional: { kind: "array", parameter: feedbackArg, minimum: 1 },
    },
    docs: { brief, fullDescription: describe(`${text} ${CHANGE_JSON}`, [example]) },
  });
}

/** Routes of `tracker feedback`. */
export const feedbackRoutes = buildRouteMap({
  routes: {
    list: buildCommand<FeedbackListFlags, [string?], TrackerContext>({
      loader: () => import("./list.ts"),
      parameters: {
        positional: targetPositional("<org>/<project> or <project>"),
        flags: {
          ...globalFlags,
          status: {
            kind: "enum",
            values: FEEDBACK_STATUS_VALUES,
            default: "unresolved",
            brief: "unresolved (the inbox), resolved, spam or all",
          },
          limit: limitFlag(FEEDBACK_LIMIT),
          period: {
            kind: "parsed",
            placeholder: "<period>",
            parse: parsePeriod,
            default: FEEDBACK_PERIOD,
            brief: "Window: <n>h, <n>d or <n>w",
          },
          cursor: cursorFlag,
        },
        aliases: { n: "limit", t: "period", c: "cursor" },
      },
      docs: {
        brief: "List user feedback",
        fullDescription: describe(
          `Lists the feedback people sent from the project (newest first): when, the feedback's ID, who (email or name), its status and the message. --json prints {"data": [{"id", "shortId", "project", "status", "message", "name", "email", "date"}], "hasMore", "nextCursor"}. ${TARGET_HELP}`,
          ["tracker feedback list acme/web", "tracker feedback list --status all -t 30d --json"],
        ),
      },
    }),
    view: buildCommand<FeedbackViewFlags, [string], TrackerContext>({
      loader: () => import("./view.ts"),
      parameters: {
        flags: {
          ...globalFlags,
          fresh: { kind: "boolean", default: false, brief: "Ignore cached issue references" },
        },
        positional: { kind: "tuple", parameters: [feedbackArg] },
      },
      docs: {
        brief: "Show one feedback with its page, replay and error event",
        fullDescription: describe(
          'Shows who sent the feedback, when, from which page, the session replay and the error event it came with, and the message. --json prints the list row plus "org", "url", "source", "replayId", "associatedEventId" and "eventId" (null when absent).',
          ["tracker feedback view WEB-5F", "tracker feedback view acme/WEB-5F --json"],
        ),
      },
    }),
    resolve: changeCommand(
      () => import("./resolve.ts"),
      "Resolve feedback",
      "Marks feedback resolved (out of the inbox).",
      "tracker feedback resolve WEB-5F",
    ),
    unresolve: changeCommand(
      () => import("./unresolve.ts"),
      "Move feedback back to the inbox",
      "Marks feedback unresolved again.",
      "tracker feedback unresolve WEB-5F",
    ),
    spam: changeCommand(
      () => import("./spam.ts"),
      "Mark feedback as spam",
      "Marks feedback as spam (Sentry stores it as ignored; `feedback list --status spam` shows it).",
      "tracker feedback spam WEB-5F WEB-5G",
    ),
  },
  docs: {
    brief: "Read and triage user feedback",
    fullDescription: describe(
      "What users wrote through the feedback widget, with the replay and error they came with.",
      ["tracker feedback list", "tracker feedback view WEB-5F", "tracker feedback resolve WEB-5F"],
    ),
  },
});
