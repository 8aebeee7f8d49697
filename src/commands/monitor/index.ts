import { buildCommand, buildRouteMap } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { globalFlags } from "../../lib/flags.ts";
import { describe } from "../../lib/help.ts";
import {
  type Interval,
  INTERVAL_UNITS,
  parseCrontab,
  parseInterval,
  parseCheckInCount,
  parseMinutes,
  parseTimezone,
} from "../../lib/monitor/schedule.ts";

/** Flags of `monitor list`. */
export interface MonitorListFlags {
  readonly json: boolean;
  readonly verbose: boolean;
}

/** `monitor list`. */
export const monitorListCommand = buildCommand<MonitorListFlags, [string?], TrackerContext>({
  loader: () => import("./list.ts"),
  parameters: {
    positional: {
      kind: "tuple",
      parameters: [
        {
          placeholder: "org",
          brief: "Organization slug (else from the context)",
          parse: String,
          optional: true,
        },
      ],
    },
    flags: { ...globalFlags },
  },
  docs: {
    brief: "List cron monitors",
    fullDescription: describe(
      'Lists the organization\'s cron monitors (one request, up to 100): slug, name, schedule, status (the worst of its environments), last check-in and the next one expected. --json prints {"data": [monitor], "hasMore"} with the API\'s monitor objects, each with what the table derives from its environments: "checkInStatus" (the status column), "scheduleText", "lastCheckIn" and "nextCheckIn".',
      ["tracker monitor list acme", "tracker monitor list --json"],
    ),
  },
});

/** Flags of `monitor run`. */
export interface MonitorRunFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly schedule?: string;
  readonly interval?: Interval;
  readonly checkInMargin?: number;
  readonly maxRuntime?: number;
  readonly timezone?: string;
  readonly failureIssueThreshold?: number;
  readonly recoveryThreshold?: number;
  readonly env?: string;
}

/** `monitor run <slug> -- <command> [args…]`. */
export const monitorRunCommand = buildCommand<MonitorRunFlags, string[], TrackerContext>({
  loader: () => import("./run.ts"),
  parameters: {
    positional: {
      kind: "array",
      parameter: {
        placeholder: "slug -- command",
        brief: "Monitor slug, then -- and the command",
        parse: String,
      },
      // One word is checked by the command, which names what is missing (the slug or the command).
      minimum: 1,
    },
    flags: {
      ...globalFlags,
      schedule: {
        kind: "parsed",
        placeholder: "<crontab>",
        parse: parseCrontab,
        optional: true,
        brief: "Crontab schedule, e.g. '0 3 * * *' (creates or updates the monitor)",
      },
      interval: {
        kind: "parsed",
        placeholder: "<duration>",
        parse: parseInterval,
        optional: true,
        brief: `Interval schedule: 10m, 2h, 1d, 1w, or '10 minutes' (${INTERVAL_UNITS.join(", ")})`,
      },
      checkInMargin: {
        kind: "parsed",
        placeholder: "<minutes>",
        parse: (raw: string) => parseMinutes(raw, "check-in-margin"),
        optional: true,
        brief: "Minutes a check-in may be late before it counts as missed",
      },
      maxRuntime: {
        kind: "parsed",
        placeholder: "<minutes>",
        parse: (raw: string) => parseMinutes(raw, "max-runtime"),
        optional: true,
        brief: "Minutes a run may take before it counts as timed out",
      },
      timezone: {
        kind: "parsed",
        placeholder: "<tz>",
        parse: parseTimezone,
        optional: true,
        brief: "Time zone of the crontab, e.g. Europe/Vienna",
      },
      failureIssueThreshold: {
        kind: "parsed",
        placeholder: "<n>",
        parse: (raw: string) => parseCheckInCount(raw, "failure-issue-threshold"),
        optional: true,
        brief: "Failed check-ins in a row before an issue is opened",
      },
      recoveryThreshold: {
        kind: "parsed",
        placeholder: "<n>",
        parse: (raw: string) => parseCheckInCount(raw, "recovery-threshold"),
        optional: true,
        brief: "Good check-ins in a row before the issue is resolved",
      },
      env: {
        kind: "parsed",
        placeholder: "<environment>",
        parse: String,
        optional: true,
        brief: "Environment",
      },
    },
    aliases: { s: "schedule", e: "env" },
  },
  docs: {
    brief: "Run a command and report it to a cron monitor",
    fullDescription: describe(
      "Runs the command with its own stdin, stdout and stderr, sends an in_progress check-in as it starts and ok or error (with the duration) when it ends, and exits with the command's exit code (128+n when it died of signal n, 127 when it does not exist). SIGINT, SIGTERM and SIGHUP are passed on to the command. Check-ins go by DSN (TRACKER_DSN or SENTRY_DSN, else [auth] dsn of .sentryclirc, else the DSN detected in .env files or source code), no login needed; without one, a token and a project (TRACKER_ORG/TRACKER_PROJECT, defaults, or an org token's organization) give the project's DSN, asked beside the job. The service never holds up or fails the job: check-ins add at most 3 s to its run time, and a failed one, or no usable DSN at all, is one warning on stderr. The command goes after --; monitor run takes no <org>/<project> argument. --schedule or --interval (with --check-in-margin, --max-runtime, --timezone, --failure-issue-threshold, --recovery-threshold) create or update the monitor. The command sees SENTRY_MONITOR_SLUG.",
      [
        "tracker monitor run nightly-backup -- ./backup.sh",
        "tracker monitor run nightly-backup --schedule '0 3 * * *' --env production -- ./backup.sh",
        "tracker monitor run sync --interval '10 minutes' -- python sync.py",
        "TRACKER_ORG=acme TRACKER_PROJECT=web tracker monitor run nightly-backup -- ./backup.sh",
      ],
    ),
  },
});

/** Routes of `tracker monitor`. */
export const monitorRoutes = buildRouteMap({
  routes: { list: monitorListCommand, run: monitorRunCommand },
  docs: {
    brief: "Cron monitors: list them, run a job with check-ins",
    fullDescription: describe("Work with cron monitors.", [
      "tracker monitor list",
      "tracker monitor run <slug> -- <command>",
    ]),
  },
});
