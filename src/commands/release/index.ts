import { buildCommand, buildRouteMap } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { cursorFlag, globalFlags, limitFlag, targetPositional } from "../../lib/flags.ts";
import { ENVIRONMENT_HELP, environmentFlag } from "../../lib/filter-flags.ts";
import { describe } from "../../lib/help.ts";
import { parseVersion } from "../../lib/release/flags.ts";
import {
  createCommand,
  deleteCommand,
  deployCommand,
  finalizeCommand,
  RELEASE_TARGET_HELP,
  setCommitsCommand,
} from "./changes.ts";
import { proposeVersionCommand } from "./propose.ts";

/** Sort orders of `release list` (the API's names; the session sorts ask with `flatten=1`). */
export const RELEASE_LIST_SORTS = ["date", "sessions", "users", "crash_free_sessions"] as const;
/** Default and bounds of `release list --limit`. */
export const RELEASE_LIMIT = { min: 1, max: 1000, fallback: 20 } as const;

/** Flags of `release list`. */
export interface ReleaseListFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly limit: number;
  readonly query?: string;
  readonly sort: (typeof RELEASE_LIST_SORTS)[number];
  readonly cursor?: string;
  readonly environment?: readonly string[];
}

/** Flags of the read commands that take a version. */
export interface ReleaseReadFlags {
  readonly json: boolean;
  readonly verbose: boolean;
}

const versionArg = { placeholder: "version", brief: "Release version, e.g. web@1.4.0", parse: parseVersion };
const orgArg = {
  placeholder: "org",
  brief: "<org> or <org>/<project> (default: TRACKER_ORG, defaults, DSN)",
  parse: String,
  optional: true,
} as const;

/** `release list` (also reachable as `tracker releases`). */
export const releaseListCommand = buildCommand<ReleaseListFlags, [string?], TrackerContext>({
  loader: () => import("./list.ts"),
  parameters: {
    positional: targetPositional("<org>/<project>, <org>/ or <project>"),
    flags: {
      ...globalFlags,
      limit: limitFlag(RELEASE_LIMIT),
      query: {
        kind: "parsed",
        placeholder: "<text>",
        parse: String,
        optional: true,
        brief: "Only versions containing this text",
      },
      sort: {
        kind: "enum",
        values: RELEASE_LIST_SORTS,
        default: "date",
        brief: "date (newest first), sessions, users or crash_free_sessions",
      },
      environment: environmentFlag,
      cursor: cursorFlag,
    },
    aliases: { n: "limit", q: "query", s: "sort", e: "environment", c: "cursor" },
  },
  docs: {
    brief: "List releases",
    fullDescription: describe(
      `Lists the releases of a project (or of a whole organization with <org>/): version, creation time, new issues, last deploy, and adoption and crash-free sessions when the service has health data. One request per page of at most 100; -c last continues after the previous page. ${ENVIRONMENT_HELP} Target: <org>/<project>, <org>/, <project>, or TRACKER_ORG/TRACKER_PROJECT, defaults, a DSN (an organization alone lists the organization).\n\n--json prints {"data": [release], "nextCursor" (only when a next page exists), "hasMore"}; each release is the service's object (version, dateCreated, dateReleased, newGroups, lastDeploy, projects[].healthData, ...).`,
      [
        "tracker release list acme/web",
        "tracker release list acme/ -q 1.4",
        "tracker release list acme/web -e production",
        "tracker releases -s sessions --json",
      ],
    ),
  },
});

/** `release view`. */
export const releaseViewCommand = buildCommand<ReleaseReadFlags, [string, string?], TrackerContext>({
  loader: () => import("./view.ts"),
  parameters: {
    flags: { ...globalFlags },
    positional: { kind: "tuple", parameters: [versionArg, orgArg] },
  },
  docs: {
    brief: "Show one release",
    fullDescription: describe(
      `Shows a release: whether and when it was finalized, its projects, commit count and authors, the latest deploy per environment, new issues, first and last event, and health per project when the service has it. Asks for the release and its deploys at once (one round trip). ${RELEASE_TARGET_HELP}\n\n--json prints the service's release object with "deploys": [deploy] (latest per project and environment) added.`,
      ["tracker release view web@1.4.0 acme", "tracker release view web@1.4.0 --json"],
    ),
  },
});

/** `release deploys`. */
export const releaseDeploysCommand = buildCommand<ReleaseReadFlags, [string, string?], TrackerContext>({
  loader: () => import("./deploys.ts"),
  parameters: {
    flags: { ...globalFlags },
    positional: { kind: "tuple", parameters: [versionArg, orgArg] },
  },
  docs: {
    brief: "List the deploys of a release",
    fullDescription: describe(
      `Lists the latest deploy of a release per project and environment, newest first: environment, name, start, finish and URL. ${RELEASE_TARGET_HELP}\n\n--json prints [deploy] as the service sends them (id, environment, dateStarted, dateFinished, name, url).`,
      ["tracker release deploys web@1.4.0 acme", "tracker release deploys web@1.4.0 --json"],
    ),
  },
});

/** Routes of `tracker release`. */
export const releaseRoutes = buildRouteMap({
  routes: {
    list: releaseListCommand,
    view: releaseViewCommand,
    create: createCommand,
    finalize: finalizeCommand,
    delete: deleteCommand,
    "set-commits": setCommitsCommand,
    deploy: deployCommand,
    deploys: releaseDeploysCommand,
    "propose-version": proposeVersionCommand,
  },
  docs: {
    // sentry-cli's verb for scripts (tracker help sentry-cli); kept off the listing.
    hideRoute: { "propose-version": true },
    brief: "Manage releases, their commits and deploys",
    fullDescription: describe(
      "Creates, finalizes and deletes releases, associates commits with them and records deploys; lists and shows them. Every change accepts --dry-run (print the exact request, send nothing) and --json. Org auth tokens (org:ci) are enough for all of them.",
      [
        "tracker release create web@1.5.0 acme/web --finalize",
        "tracker release set-commits web@1.5.0 acme --local",
        "tracker release deploy web@1.5.0 acme --env production",
      ],
    ),
  },
});
