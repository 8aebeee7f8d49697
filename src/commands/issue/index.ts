import { buildCommand, buildRouteMap } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import {
  cursorFlag,
  DEFAULT_PERIOD,
  freshFlag,
  globalFlags,
  limitFlag,
  targetPositional,
  webFlag,
} from "../../lib/flags.ts";
import {
  ENVIRONMENT_HELP,
  environmentFlag,
  type FilterFlags,
  WINDOW_HELP,
  windowFlags,
} from "../../lib/filter-flags.ts";
import { describe, TARGET_HELP } from "../../lib/help.ts";
import {
  archiveCommand,
  assignCommand,
  eventsCommand,
  noteCommand,
  resolveCommand,
  unresolveCommand,
} from "./changes.ts";
import {
  activityCommand,
  linkCommand,
  mergeCommand,
  timelineCommand,
  unlinkCommand,
} from "./incident-specs.ts";
import { tagsCommand } from "./tags-spec.ts";
import { VIEW_NOTES_MAX } from "../../lib/issue/view-limits.ts";

/** Sort orders of `issue list`. */
export const ISSUE_SORTS = ["date", "new", "freq", "user"] as const;
/** Default and bounds of `issue list --limit`. */
export const ISSUE_LIMIT = { min: 1, max: 1000, fallback: 25 } as const;

/** Flags of `issue list`. */
export interface IssueListFlags extends FilterFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly fresh: boolean;
  readonly limit: number;
  readonly query?: string;
  readonly sort: (typeof ISSUE_SORTS)[number];
  readonly cursor?: string;
}

/** `issue list` (also reachable as `tracker issues`). */
export const issueListCommand = buildCommand<IssueListFlags, [string?], TrackerContext>({
  loader: () => import("./list.ts"),
  parameters: {
    positional: targetPositional("<org>/<project>, <org>/ or <project>"),
    flags: {
      ...globalFlags,
      fresh: freshFlag,
      limit: limitFlag(ISSUE_LIMIT),
      query: {
        kind: "parsed",
        placeholder: "<query>",
        parse: String,
        optional: true,
        brief: "Search filter, e.g. 'is:unresolved level:error'",
      },
      sort: { kind: "enum", values: ISSUE_SORTS, default: "date", brief: "date, new, freq or user" },
      ...windowFlags(DEFAULT_PERIOD),
      environment: environmentFlag,
      cursor: cursorFlag,
    },
    aliases: { n: "limit", q: "query", s: "sort", t: "period", e: "environment", c: "cursor" },
  },
  docs: {
    brief: "List issues",
    fullDescription: describe(
      `Lists issues of a project, of several detected projects, or of a whole organization (<org>/: every project the token can access, with an ALIAS column). Pages at 100 per request up to --limit; -c last continues after the previous page of the same target, sort, query, window and environments. Without -q the service shows unresolved issues. --json prints {"data": [...], "hasMore": bool, "nextCursor": "..."} (nextCursor only when a next page exists; "errors": [{"project", "message"}] when a detected project failed); "count" is always a number. ${WINDOW_HELP} ${ENVIRONMENT_HELP} ${TARGET_HELP}`,
      [
        "tracker issue list acme/web",
        "tracker issue list acme/ -n 100 --sort freq",
        "tracker issue list -q 'level:error' -t 24h --json",
        "tracker issue list acme/web -t 2026-11-20T14:00..2026-11-20T15:30 -e production",
        "tracker issue list -c last",
      ],
    ),
  },
});

const issueArg = {
  kind: "tuple",
  parameters: [
    {
      placeholder: "issue",
      brief: "Short ID (WEB-4Y), numeric ID, alias-suffix (w-4Y) or suffix (4Y)",
      parse: String,
    },
  ],
} as const;

/** Routes of `tracker issue`. */
export const issueRoutes = buildRouteMap({
  routes: {
    list: issueListCommand,
    view: buildCommand<
      { json: boolean; verbose: boolean; fresh: boolean; web: boolean },
      string[],
      TrackerContext
    >({
      loader: () => import("./view.ts"),
      parameters: {
        flags: { ...globalFlags, fresh: freshFlag, web: webFlag },
        aliases: { w: "web" },
        positional: { kind: "array", parameter: issueArg.parameters[0], minimum: 1 },
      },
      docs: {
        brief: "Show issues with their latest event, suspect commits and deploys",
        fullDescription: describe(
          `Shows an issue's details (with its org/project), tags and latest event with its top in-app frames, then what happened around it: the release it first appeared in with that release's deploys and how long after a deploy the first event came, the suspect commits of the latest event (author, commit, message, pull request), the linked tickets and the last ${VIEW_NOTES_MAX} notes. Several issues are shown in the given order. --web opens the issue's page in the browser instead.\n\n--json prints the Issue plus "org", "metadata", "tags": [{"key", "value"}], "latestEvent": {"eventID", "message", "platform", "timestamp", "frames": [{"filename", "function", "lineNo", "colNo", "inApp"}]} (the frames the human view shows, crashing frame first) or null, "suspectCommits": [{"author", "commit", "message", "repository", "date", "pullRequest": {"title", "url"} | null}], "firstRelease": {"version", "deploys": [{"environment", "dateFinished"}], "firstEventAfter": {"environment", "ms"} | null} | null, "links": [{"id", "key", "url", "title", "integrationId", "provider"}] and "notes" (as issue activity --json rows); with several issues, an array of those in the given order.`,
          [
            "tracker issue view WEB-4Y",
            "tracker issue view WEB-4Y WEB-51 API-2 --json",
            "tracker issue view 4001 --json",
            "tracker issue view 4Y",
            "tracker issue view WEB-4Y --web",
          ],
        ),
      },
    }),
    explain: buildCommand<
      { json: boolean; verbose: boolean; fresh: boolean; force: boolean },
      [string],
      TrackerContext
    >({
      loader: () => import("./explain.ts"),
      parameters: {
        flags: {
          ...globalFlags,
          fresh: freshFlag,
          force: { kind: "boolean", default: false, brief: "Start a new analysis even if one exists" },
        },
        positional: issueArg,
      },
      docs: {
        brief: "Explain the root cause of an issue (AI analysis)",
        fullDescription: describe(
          'Runs (or reuses) the service\'s AI analysis and prints the root cause. Polls until it is done (up to 6 minutes). --json prints {"issueId", "analysis": {"summary", "rootCause", "suggestedFix", "affectedCode"}}.',
          ["tracker issue explain WEB-4Y", "tracker issue explain WEB-4Y --json"],
        ),
      },
    }),
    plan: buildCommand<
      { json: boolean; verbose: boolean; fresh: boolean; force: boolean },
      [string],
      TrackerContext
    >({
      loader: () => import("./plan.ts"),
      parameters: {
        flags: {
          ...globalFlags,
          fresh: freshFlag,
          force: { kind: "boolean", default: false, brief: "Start a new analysis even if one exists" },
        },
        positional: issueArg,
      },
      docs: {
        brief: "Propose a fix plan for an issue (AI analysis)",
        fullDescription: describe(
          'Builds on the root-cause analysis and prints numbered fix steps. --json prints {"issueId", "plan": {"steps": [{"step", "action", "code", "file", "line"}], "confidence"}}; the service gives no line numbers, so line is read from the step text (0 when none); confidence is the service\'s score, else the issue\'s fixability score, else 0.',
          ["tracker issue plan WEB-4Y", "tracker issue plan WEB-4Y --json"],
        ),
      },
    }),
    resolve: resolveCommand,
    unresolve: unresolveCommand,
    archive: archiveCommand,
    assign: assignCommand,
    note: noteCommand,
    events: eventsCommand,
    tags: tagsCommand,
    activity: activityCommand,
    merge: mergeCommand,
    link: linkCommand,
    unlink: unlinkCommand,
    timeline: timelineCommand,
  },
  aliases: { reopen: "unresolve", ignore: "archive" },
  docs: {
    brief: "List, inspect and change issues",
    fullDescription: describe(
      "Work with issues (grouped errors): read them, then resolve, archive, assign or annotate them.",
      ["tracker issue list", "tracker issue view WEB-4Y", "tracker issue resolve WEB-4Y"],
    ),
  },
});
