import { buildCommand } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { EVENT_LEVELS, type EventLevel, parseKeyValue, parseUserField } from "../../lib/envelope/event.ts";
import { LOG_TAIL_LINES } from "../../lib/envelope/logfile.ts";
import { globalFlags } from "../../lib/flags.ts";
import { describe } from "../../lib/help.ts";

/** Flags of `event send`. */
export interface EventSendFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly message?: string;
  readonly level: EventLevel;
  readonly tag?: readonly [string, string][];
  readonly extra?: readonly [string, string][];
  readonly release?: string;
  readonly dist?: string;
  readonly env?: string;
  readonly fingerprint?: readonly string[];
  readonly logfile?: string;
  readonly user?: readonly [string, string][];
}

/** `event send`: one event by DSN. */
export const eventSendCommand = buildCommand<EventSendFlags, [], TrackerContext>({
  loader: () => import("./send.ts"),
  parameters: {
    flags: {
      ...globalFlags,
      message: { kind: "parsed", placeholder: "<text>", parse: String, optional: true, brief: "Message" },
      level: { kind: "enum", values: EVENT_LEVELS, default: "error", brief: "Level" },
      tag: {
        kind: "parsed",
        placeholder: "<key:value>",
        parse: (raw: string) => parseKeyValue(raw, "tag"),
        variadic: true,
        optional: true,
        brief: "Tag (repeatable)",
      },
      extra: {
        kind: "parsed",
        placeholder: "<key:value>",
        parse: (raw: string) => parseKeyValue(raw, "extra"),
        variadic: true,
        optional: true,
        brief: "Extra data (repeatable)",
      },
      release: { kind: "parsed", placeholder: "<version>", parse: String, optional: true, brief: "Release" },
      dist: {
        kind: "parsed",
        placeholder: "<dist>",
        parse: String,
        optional: true,
        brief: "Distribution (build) of the release",
      },
      env: {
        kind: "parsed",
        placeholder: "<environment>",
        parse: String,
        optional: true,
        brief: "Environment",
      },
      fingerprint: {
        kind: "parsed",
        placeholder: "<part>",
        parse: String,
        variadic: true,
        optional: true,
        brief: "Fingerprint part for grouping (repeatable)",
      },
      logfile: {
        kind: "parsed",
        placeholder: "<file>",
        parse: String,
        optional: true,
        brief: `Send the last ${LOG_TAIL_LINES} lines of a file as breadcrumbs`,
      },
      user: {
        kind: "parsed",
        placeholder: "<field:value>",
        parse: parseUserField,
        variadic: true,
        optional: true,
        brief: "User: id:…, email:…, username:…, ip_address:… (repeatable)",
      },
    },
    aliases: { m: "message", l: "level", t: "tag", e: "extra", r: "release", u: "user" },
  },
  docs: {
    brief: "Send an event by DSN",
    fullDescription: describe(
      `Sends one event to the project of the DSN (TRACKER_DSN, else the DSN detected in .env files or source code; no login needed) and prints its event ID. --logfile adds the last ${LOG_TAIL_LINES} lines of a file as breadcrumbs (only the end of the file is read). --json prints {"eventId", "url"}; url is the event's page when the organization is known (TRACKER_ORG, or the DSN resolved before), else null.`,
      [
        "tracker event send -m 'Backup failed' --level fatal -t host:db1",
        "tracker event send -m 'Deploy check' -e build:1234 --release 1.2.0 --dist 42 --env production",
        "tracker event send -m 'Cron output' --logfile /var/log/cron.log --json",
      ],
    ),
  },
});
