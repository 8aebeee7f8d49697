/** Specs of the incident verbs of `tracker issue`: activity, merge, link, unlink, timeline. */
import { buildCommand } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { freshFlag, globalFlags } from "../../lib/flags.ts";
import { describe } from "../../lib/help.ts";

const issueParam = {
  placeholder: "issue",
  brief: "Short ID (WEB-4Y), numeric ID, org/SHORT-ID, alias-suffix or issue URL",
  parse: String,
} as const;

const dryRun = { kind: "boolean", default: false, brief: "Print the request; send nothing" } as const;

/** Flags of `issue activity` and `issue timeline`. */
export interface ActivityFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly fresh: boolean;
}

/** `issue activity`. */
export const activityCommand = buildCommand<ActivityFlags, [string], TrackerContext>({
  loader: () => import("./activity.ts"),
  parameters: {
    flags: { ...globalFlags, fresh: freshFlag },
    positional: { kind: "tuple", parameters: [issueParam] },
  },
  docs: {
    brief: "Show who did what on an issue: notes, status changes, assignments, merges, links",
    fullDescription: describe(
      'Lists the issue\'s activity, newest first (the service keeps the last 100 items): notes, resolves and reopens, archives, regressions, assignments, merges and linked tickets, with who and when. --json prints {"issue", "data": [{"dateCreated", "type", "user", "summary", "id", "data"}]} (user null when the service itself acted); --format md prints it as a markdown table for agents.',
      [
        "tracker issue activity WEB-4Y",
        "tracker issue activity WEB-4Y --json",
        "tracker issue activity WEB-4Y --format md",
      ],
    ),
  },
});

/** Flags of `issue merge`. */
export interface MergeFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly into: string;
  readonly dryRun: boolean;
  readonly yes: boolean;
}

/** `issue merge`. */
export const mergeCommand = buildCommand<MergeFlags, string[], TrackerContext>({
  loader: () => import("./merge.ts"),
  parameters: {
    flags: {
      ...globalFlags,
      into: {
        kind: "parsed",
        placeholder: "<issue>",
        parse: String,
        brief: "The issue to keep (a preference: see below)",
      },
      dryRun,
      yes: { kind: "boolean", default: false, brief: "Merge without asking" },
    },
    aliases: { y: "yes" },
    positional: {
      kind: "array",
      parameter: {
        ...issueParam,
        placeholder: "issue",
        brief: "Issues to merge into --into, or - (one per line on stdin)",
      },
    },
  },
  docs: {
    brief: "Merge issues of one project into one",
    fullDescription: describe(
      'Merges the issues into one with a single request; they must belong to one project. Sentry keeps the issue with the most events as the parent whatever is asked: --into is sent first, and when Sentry keeps another one a warning names it. A terminal shows the issues and asks first; without a terminal --yes is required. --dry-run prints the request and sends nothing ({"dryRun": true, "requests": [{"method", "path", "body"}]} with --json). --json prints {"into", "parent": {"id", "shortId"}, "children": [{"id", "shortId"}], "dryRun": false}.',
      [
        "tracker issue merge WEB-51 WEB-52 --into WEB-4Y",
        "tracker issue merge WEB-51 --into WEB-4Y --dry-run",
        "tracker issue merge WEB-51 WEB-52 --into WEB-4Y --yes --json",
      ],
    ),
  },
});

/** Flags of `issue link` and `issue unlink`. */
export interface LinkFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly dryRun: boolean;
  readonly integration?: string;
}

/** `issue link`. */
export const linkCommand = buildCommand<LinkFlags, [string, string], TrackerContext>({
  loader: () => import("./link.ts"),
  parameters: {
    flags: {
      ...globalFlags,
      dryRun,
      integration: {
        kind: "parsed",
        placeholder: "<id|name>",
        parse: String,
        optional: true,
        brief: "The issue-tracker integration (id, name or provider) when the URL does not tell",
      },
    },
    positional: {
      kind: "tuple",
      parameters: [
        issueParam,
        { placeholder: "url", brief: "The ticket's URL (GitHub, Jira, Linear…)", parse: String },
      ],
    },
  },
  docs: {
    brief: "Link an existing ticket (GitHub, Jira, Linear…) to an issue",
    fullDescription: describe(
      'Links a ticket through the organization\'s issue-tracker integration: the only one, the one whose host the URL names, or the one --integration names. `issue view` lists the linked tickets. --json prints {"issue", "provider", "id", "key", "url", "integrationId", "displayName"}; id is the link id `issue unlink` takes.',
      [
        "tracker issue link WEB-4Y https://github.com/acme/web/issues/321",
        "tracker issue link WEB-4Y https://acme.atlassian.net/browse/WEB-12 --integration jira",
      ],
    ),
  },
});

/** Flags of `issue unlink`. */
export type UnlinkFlags = Omit<LinkFlags, "integration">;

/** `issue unlink`. */
export const unlinkCommand = buildCommand<UnlinkFlags, [string, string], TrackerContext>({
  loader: () => import("./unlink.ts"),
  parameters: {
    flags: { ...globalFlags, dryRun },
    positional: {
      kind: "tuple",
      parameters: [
        issueParam,
        { placeholder: "url|link-id", brief: "The linked ticket's URL, key or link id", parse: String },
      ],
    },
  },
  docs: {
    brief: "Remove a ticket link from an issue",
    fullDescription: describe(
      'Removes the link (the ticket itself is not touched), named by its URL, key or link id as `issue view` lists them. --json prints {"issue", "unlinked": {"id", "key", "url", "title", "integrationId", "provider"}}.',
      [
        "tracker issue unlink WEB-4Y https://github.com/acme/web/issues/321",
        "tracker issue unlink WEB-4Y 55000",
      ],
    ),
  },
});

/** `issue timeline`. */
export const timelineCommand = buildCommand<ActivityFlags, [string], TrackerContext>({
  loader: () => import("./timeline.ts"),
  parameters: {
    flags: { ...globalFlags, fresh: freshFlag },
    positional: { kind: "tuple", parameters: [issueParam] },
  },
  docs: {
    brief: "Show what happened to an issue and its project, in time order",
    fullDescription: describe(
      'One list, oldest first: the first and latest event, the project\'s releases (its newest 25) and their deploys from a day before the first event on, and the issue\'s regressions, notes, status changes, assignments, merges and links. --json prints {"issue", "project", "window": {"start", "end"}, "data": [{"date", "kind", "summary", "user"}]}; --format md prints it as a markdown table for agents.',
      ["tracker issue timeline WEB-4Y", "tracker issue timeline WEB-4Y --format md"],
    ),
  },
});
