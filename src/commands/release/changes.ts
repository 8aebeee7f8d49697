/** Specs of the release commands that change something: create, finalize, delete, set-commits, deploy. */
import { buildCommand } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { globalFlags, parseIntInRange } from "../../lib/flags.ts";
import { describe } from "../../lib/help.ts";
import { INITIAL_DEPTH, parseEnvironment, parseTime, parseVersion } from "../../lib/release/flags.ts";

/** How the version commands find their organization (shown in their help). */
export const RELEASE_TARGET_HELP =
  "Organization: the second argument (<org> or <org>/<project>), else TRACKER_ORG, `tracker defaults set`, or the organization of a DSN found here.";

const CHANGE_HELP =
  '--dry-run prints the exact request (method, path, JSON body) and sends no change; with --json it prints {"dryRun": true, "requests": [{"method", "path", "body"}]}.';

/** Flags every release change shares. */
export interface ReleaseChangeFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly dryRun: boolean;
}

const dryRun = { kind: "boolean", default: false, brief: "Print the request; send no change" } as const;
const versionArg = { placeholder: "version", brief: "Release version, e.g. web@1.4.0", parse: parseVersion };
const orgArg = {
  placeholder: "org",
  brief: "<org> or <org>/<project> (default: TRACKER_ORG, defaults, DSN)",
  parse: String,
  optional: true,
} as const;
const timeFlag = (brief: string) =>
  ({ kind: "parsed", placeholder: "<time>", parse: parseTime, optional: true, brief }) as const;
const text = (placeholder: string, brief: string) =>
  ({ kind: "parsed", placeholder, parse: String, optional: true, brief }) as const;

/** Flags of `release create`. */
export interface CreateFlags extends ReleaseChangeFlags {
  readonly project?: readonly string[];
  readonly url?: string;
  readonly ref?: string;
  readonly finalize: boolean;
}

/** `release create <version> [<target>]`. */
export const createCommand = buildCommand<CreateFlags, [string, string?], TrackerContext>({
  loader: () => import("./create.ts"),
  parameters: {
    flags: {
      ...globalFlags,
      dryRun,
      project: {
        ...text("<slug>", "Project of the release (repeatable; default: the target's project)"),
        variadic: true,
      },
      url: text("<url>", "URL of the release (e.g. its changelog)"),
      ref: text("<ref>", "Commit or tag the release was built from"),
      finalize: { kind: "boolean", default: false, brief: "Also mark it released now (dateReleased)" },
    },
    aliases: { p: "project" },
    positional: {
      kind: "tuple",
      parameters: [
        versionArg,
        {
          placeholder: "target",
          brief: "<org>/<project> (or <org> with --project)",
          parse: String,
          optional: true,
        },
      ],
    },
  },
  docs: {
    brief: "Create a release",
    fullDescription: describe(
      `Creates a release with one request. Its projects are the --project slugs (in the target's organization), else the target's project (<org>/<project>, <project>, or TRACKER_ORG/TRACKER_PROJECT, defaults, a DSN). --finalize sends dateReleased in the same request. A version that already exists is not an error: the service answers 208 and the release is unchanged (said on stderr, exit 0; with --finalize an unfinalized one is then finalized). ${CHANGE_HELP} --json prints {"created": bool, "release": release}.`,
      [
        "tracker release create web@1.5.0 acme/web",
        "tracker release create 1.5.0 acme -p web -p api --finalize",
        "tracker release create web@1.5.0 --dry-run",
      ],
    ),
  },
});

/** Flags of `release finalize`. */
export interface FinalizeFlags extends ReleaseChangeFlags {
  readonly released?: string;
}

/** `release finalize <version> [<org>]`. */
export const finalizeCommand = buildCommand<FinalizeFlags, [string, string?], TrackerContext>({
  loader: () => import("./finalize.ts"),
  parameters: {
    flags: { ...globalFlags, dryRun, released: timeFlag("When it was released (default: now)") },
    positional: { kind: "tuple", parameters: [versionArg, orgArg] },
  },
  docs: {
    brief: "Mark a release as released",
    fullDescription: describe(
      `Sets the release's dateReleased (now, or --released: ISO 8601, a date, or Unix seconds) with one PUT. ${RELEASE_TARGET_HELP} ${CHANGE_HELP} --json prints the updated release.`,
      [
        "tracker release finalize web@1.5.0 acme",
        "tracker release finalize web@1.5.0 --released 2026-01-15T12:00:00Z",
      ],
    ),
  },
});

/** `release delete <version> [<org>]`. */
/** Flags of `release delete`. */
export interface DeleteFlags extends ReleaseChangeFlags {
  readonly yes: boolean;
}

export const deleteCommand = buildCommand<DeleteFlags, [string, string?], TrackerContext>({
  loader: () => import("./delete.ts"),
  parameters: {
    flags: {
      ...globalFlags,
      dryRun,
      yes: { kind: "boolean", default: false, brief: "Delete without asking (required without a terminal)" },
    },
    aliases: { y: "yes" },
    positional: { kind: "tuple", parameters: [versionArg, orgArg] },
  },
  docs: {
    brief: "Delete a release",
    fullDescription: describe(
      `Deletes a release with one DELETE, after asking on a terminal (default No); without a terminal (a pipe, CI, an agent, --json) --yes is required. The service refuses (400) to delete a release that active issues refer to. ${RELEASE_TARGET_HELP} ${CHANGE_HELP} --json prints {"deleted": version, "org"}.`,
      ["tracker release delete web@1.5.0-rc.1 acme", "tracker release delete web@1.5.0-rc.1 acme --yes"],
    ),
  },
});

/** Flags of `release set-commits`. */
export interface SetCommitsFlags extends ReleaseChangeFlags {
  readonly auto: boolean;
  readonly local: boolean;
  readonly commit?: readonly string[];
  readonly initialDepth: number;
  readonly ignoreMissing: boolean;
  readonly clear: boolean;
}

/** `release set-commits <version> [<org>]`. */
export const setCommitsCommand = buildCommand<SetCommitsFlags, [string, string?], TrackerContext>({
  loader: () => import("./set-commits.ts"),
  parameters: {
    flags: {
      ...globalFlags,
      dryRun,
      auto: {
        kind: "boolean",
        default: false,
        brief: "HEAD of this working tree, in the connected repository named like origin",
      },
      local: {
        kind: "boolean",
        default: false,
        brief: "Send the commits of this working tree (git log) with their files",
      },
      commit: {
        ...text("<repo>@[<from>..]<to>", "A commit or range of a connected repository (repeatable)"),
        variadic: true,
      },
      initialDepth: {
        kind: "parsed",
        placeholder: "<n>",
        parse: (raw: string) => parseIntInRange(raw, "initial-depth", 1, 1000),
        default: String(INITIAL_DEPTH),
        brief: "With --local: commits to send when no previous release has commits",
      },
      ignoreMissing: {
        kind: "boolean",
        default: false,
        brief:
          "With --local: when the previous release's commit is not in the history, send --initial-depth commits",
      },
      clear: {
        kind: "boolean",
        default: false,
        brief: "Send an empty list of refs (sentry-cli's --clear)",
      },
    },
    positional: { kind: "tuple", parameters: [versionArg, orgArg] },
  },
  docs: {
    brief: "Associate commits with a release",
    fullDescription: describe(
      `Replaces the release's commits with one PUT. --local reads this working tree's history (git log: author, message, time, changed files), from the last commit of the previous release that has commits up to HEAD, newest first; without a previous release, the last --initial-depth (${INITIAL_DEPTH}) commits. The repository is named from origin's URL as sentry-cli names it (the path without .git: owner/repo, GitLab subgroups whole; org/project for Azure DevOps). A shallow clone whose history does not reach the previous release, or that holds fewer than --initial-depth commits when there is none, is an error naming the fetch to run (git fetch --deepen=<n> or --unshallow, fetch-depth: 0 in actions/checkout), never a wrong range; --ignore-missing sends the last --initial-depth commits when the previous release's commit is missing. --auto and --commit send refs for the service to fetch through its repository integration; when origin's repository is not connected, --auto sends this working tree's commits instead (as --local, with a warning), as sentry-cli does. ${RELEASE_TARGET_HELP} ${CHANGE_HELP} With --local the reads (previous release, git) still happen. --clear sends {"refs": []}, as sentry-cli's --clear does. --json prints {"version", "org", "sent": body, "release": release}.`,
      [
        "tracker release set-commits web@1.5.0 acme --local",
        "tracker release set-commits web@1.5.0 acme --auto",
        "tracker release set-commits web@1.5.0 acme --commit acme/web@4f2a9c1..9e1d2b7",
        "tracker release set-commits web@1.5.0 acme --clear --dry-run",
      ],
    ),
  },
});

/** Flags of `release deploy`. */
export interface DeployFlags extends ReleaseChangeFlags {
  readonly env: string;
  readonly name?: string;
  readonly url?: string;
  readonly started?: string;
  readonly finished?: string;
}

/** `release deploy <version> [<org>] --env <environment>`. */
export const deployCommand = buildCommand<DeployFlags, [string, string?], TrackerContext>({
  loader: () => import("./deploy.ts"),
  parameters: {
    flags: {
      ...globalFlags,
      dryRun,
      env: {
        kind: "parsed",
        placeholder: "<environment>",
        parse: parseEnvironment,
        brief: "Environment deployed to (created on the fly)",
      },
      name: text("<name>", "Name of the deploy"),
      url: text("<url>", "URL of the deploy"),
      started: timeFlag("When the deploy started"),
      finished: timeFlag("When it finished (default: now, set by the service)"),
    },
    aliases: { e: "env" },
    positional: { kind: "tuple", parameters: [versionArg, orgArg] },
  },
  docs: {
    brief: "Record a deploy of a release",
    fullDescription: describe(
      `Records that a release was deployed to an environment, with one POST. Times: ISO 8601, a date, Unix seconds or now. ${RELEASE_TARGET_HELP} ${CHANGE_HELP} --json prints the deploy.`,
      [
        "tracker release deploy web@1.5.0 acme --env production",
        "tracker release deploy web@1.5.0 -e staging --name canary",
      ],
    ),
  },
});
