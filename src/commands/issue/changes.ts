/** Specs of the commands that change issues: resolve, unresolve, archive, assign, note (and events). */
import { buildCommand } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { cursorFlag, DEFAULT_PERIOD, globalFlags, limitFlag, parsePeriod } from "../../lib/flags.ts";
import {
  ENVIRONMENT_HELP,
  environmentFlag,
  type FilterFlags,
  WINDOW_HELP,
  windowFlags,
} from "../../lib/filter-flags.ts";
import { describe } from "../../lib/help.ts";
import { QUERY_CHANGE_MAX } from "../../lib/issue/change-limit.ts";

/** Default and bounds of `--limit` for query-wide changes. */
export const CHANGE_LIMIT = { min: 1, max: QUERY_CHANGE_MAX, fallback: 100 } as const;

/** Flags every changing command shares. */
export interface ChangeCommandFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly dryRun: boolean;
  readonly yes: boolean;
  readonly query?: string;
  readonly period: string;
  readonly limit: number;
}

const changeFlags = {
  ...globalFlags,
  dryRun: { kind: "boolean", default: false, brief: "Print what would change; send no change" },
  yes: { kind: "boolean", default: false, brief: "Change every issue --query matches without asking" },
  query: {
    kind: "parsed",
    placeholder: "<query>",
    parse: String,
    optional: true,
    brief: "Change every issue this search matches in the target (positional) instead of named issues",
  },
  period: {
    kind: "parsed",
    placeholder: "<period>",
    parse: parsePeriod,
    default: DEFAULT_PERIOD,
    brief: "With --query: activity window",
  },
  limit: limitFlag(CHANGE_LIMIT),
} as const;

const changeAliases = { q: "query", t: "period", n: "limit", y: "yes" } as const;

const issuesArg = {
  kind: "array",
  parameter: {
    placeholder: "issue",
    brief: "Short ID, numeric ID, org/SHORT-ID, alias-suffix, issue URL, or - (one per line on stdin)",
    parse: String,
  },
} as const;

const REFS_HELP =
  'Issues are named like in `issue view` (several at once, or - to read them from stdin), or chosen with --query \'<search>\' in a target (<org>/<project>, <org>/ or the current project): the matches are listed first (and when more match than -n, how many match and that only the first -n change), a terminal asks before changing them, and without a terminal --yes is required. --dry-run prints exactly what would change and sends nothing. --json prints {"changed": [Issue], "failed": [{"issue", "error"}], "dryRun": bool} (with --dry-run also "requests": [{"method", "path", "body"}], the requests it would send); a partial failure still prints what changed and exits with the first failure\'s code.';

/** Flags of `issue resolve`. */
export interface ResolveFlags extends ChangeCommandFlags {
  readonly in?: string;
  readonly inNextRelease: boolean;
}

/** `issue resolve`. */
export const resolveCommand = buildCommand<ResolveFlags, string[], TrackerContext>({
  loader: () => import("./resolve.ts"),
  parameters: {
    flags: {
      ...changeFlags,
      in: {
        kind: "parsed",
        placeholder: "<version>",
        parse: String,
        optional: true,
        brief: "Resolved in this release (must exist)",
      },
      inNextRelease: { kind: "boolean", default: false, brief: "Resolved in the next release" },
    },
    aliases: changeAliases,
    positional: issuesArg,
  },
  docs: {
    brief: "Resolve issues",
    fullDescription: describe(`Marks issues resolved, optionally in a release. ${REFS_HELP}`, [
      "tracker issue resolve WEB-4Y",
      "tracker issue resolve WEB-4Y WEB-51 --in web@1.5.0",
      "tracker issue list -q 'level:info' --json | jq -r '.data[].shortId' | tracker issue resolve -",
      "tracker issue resolve --query 'is:unresolved level:info' acme/web --dry-run",
    ]),
  },
});

/** `issue unresolve` (also `issue reopen`). */
export const unresolveCommand = buildCommand<ChangeCommandFlags, string[], TrackerContext>({
  loader: () => import("./unresolve.ts"),
  parameters: { flags: changeFlags, aliases: changeAliases, positional: issuesArg },
  docs: {
    brief: "Reopen resolved or archived issues",
    fullDescription: describe(`Marks issues unresolved again. ${REFS_HELP}`, [
      "tracker issue unresolve WEB-4Y",
      "tracker issue reopen acme/WEB-4Y --json",
    ]),
  },
});

/** Flags of `issue archive`. */
export interface ArchiveFlags extends ChangeCommandFlags {
  readonly until?: "escalating";
  readonly for?: string;
  readonly count?: string;
  readonly users?: string;
  readonly forever: boolean;
}

/** `issue archive` (also `issue ignore`). */
export const archiveCommand = buildCommand<ArchiveFlags, string[], TrackerContext>({
  loader: () => import("./archive.ts"),
  parameters: {
    flags: {
      ...changeFlags,
      until: {
        kind: "enum",
        values: ["escalating"],
        optional: true,
        brief: "Until the issue escalates (default)",
      },
      for: {
        kind: "parsed",
        placeholder: "<duration>",
        parse: String,
        optional: true,
        brief: "For a duration: <n>m, <n>h, <n>d or <n>w",
      },
      count: {
        kind: "parsed",
        placeholder: "<n[/window]>",
        parse: String,
        optional: true,
        brief: "Until <n> more events [/ in <window>]",
      },
      users: {
        kind: "parsed",
        placeholder: "<n[/window]>",
        parse: String,
        optional: true,
        brief: "Until <n> more users [/ in <window>]",
      },
      forever: { kind: "boolean", default: false, brief: "Forever" },
    },
    aliases: changeAliases,
    positional: issuesArg,
  },
  docs: {
    brief: "Archive (ignore) issues",
    fullDescription: describe(
      `Archives issues until they escalate (default), for a while, until a count, or forever. ${REFS_HELP}`,
      [
        "tracker issue archive WEB-4Y",
        "tracker issue archive WEB-4Y --for 2h",
        "tracker issue archive WEB-4Y --count 100/1h",
        "tracker issue ignore --query 'level:debug' acme/ --yes",
      ],
    ),
  },
});

/** Flags of `issue assign`. */
export interface AssignFlags extends ChangeCommandFlags {
  readonly none: boolean;
}

/** `issue assign`. */
export const assignCommand = buildCommand<AssignFlags, string[], TrackerContext>({
  loader: () => import("./assign.ts"),
  parameters: {
    flags: { ...changeFlags, none: { kind: "boolean", default: false, brief: "Unassign" } },
    aliases: changeAliases,
    positional: {
      kind: "array",
      parameter: {
        placeholder: "issue… assignee",
        brief: "Issues, then who: me, a username, an email or #team-slug",
        parse: String,
      },
    },
  },
  docs: {
    brief: "Assign issues to a person or team",
    fullDescription: describe(
      `Assigns issues; the last argument is the assignee (me, a username, an email, or #team-slug), or --none unassigns. ${REFS_HELP}`,
      [
        "tracker issue assign WEB-4Y me",
        "tracker issue assign WEB-4Y WEB-51 jane@example.com",
        "tracker issue assign WEB-4Y '#backend'",
        "tracker issue assign WEB-4Y --none",
      ],
    ),
  },
});

/** Flags of `issue note`. */
export interface NoteFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly dryRun: boolean;
}

/** `issue note`. */
export const noteCommand = buildCommand<NoteFlags, [string, string], TrackerContext>({
  loader: () => import("./note.ts"),
  parameters: {
    flags: {
      ...globalFlags,
      dryRun: { kind: "boolean", default: false, brief: "Print the note; do not add it" },
    },
    positional: {
      kind: "tuple",
      parameters: [
        { placeholder: "issue", brief: "The issue (as in issue view)", parse: String },
        { placeholder: "text", brief: "The note, or - to read it from stdin", parse: String },
      ],
    },
  },
  docs: {
    brief: "Add a note (comment) to an issue",
    fullDescription: describe(
      'Adds a note to the issue. --json prints the created note {"id", "type", "data": {"text"}, "dateCreated", "user"}.',
      ["tracker issue note WEB-4Y 'Fixed by #1234'", "git log -1 --format=%B | tracker issue note WEB-4Y -"],
    ),
  },
});

/** Default and bounds of `issue events --limit`. */
export const EVENTS_LIMIT = { min: 1, max: 1000, fallback: 25 } as const;

/** Flags of `issue events`. */
export interface EventsFlags extends FilterFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly query?: string;
  readonly limit: number;
  readonly cursor?: string;
  readonly full: boolean;
}

/** `issue events`. */
export const eventsCommand = buildCommand<EventsFlags, [string], TrackerContext>({
  loader: () => import("./events.ts"),
  parameters: {
    flags: {
      ...globalFlags,
      query: {
        kind: "parsed",
        placeholder: "<query>",
        parse: String,
        optional: true,
        brief: "Search filter, e.g. 'environment:production'",
      },
      limit: limitFlag(EVENTS_LIMIT),
      ...windowFlags(DEFAULT_PERIOD),
      environment: environmentFlag,
      cursor: cursorFlag,
      full: { kind: "boolean", default: false, brief: "Include stack traces and breadcrumbs (--json)" },
    },
    aliases: { q: "query", n: "limit", t: "period", e: "environment", c: "cursor" },
    positional: {
      kind: "tuple",
      parameters: [{ placeholder: "issue", brief: "The issue (as in issue view)", parse: String }],
    },
  },
  docs: {
    brief: "List an issue's events",
    fullDescription: describe(
      `Lists the events of an issue, newest first, 100 per request up to --limit; -c last continues after the previous page of the same query, window and environments. --json prints {"data": [Event], "hasMore", "nextCursor"?}. ${WINDOW_HELP} ${ENVIRONMENT_HELP}`,
      [
        "tracker issue events WEB-4Y",
        "tracker issue events WEB-4Y -n 200 --json",
        "tracker issue events WEB-4Y -c last",
        "tracker issue events WEB-4Y --start -2h -e production",
      ],
    ),
  },
});
