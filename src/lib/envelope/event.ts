/** The `event` envelope item of `event send` (API.md §18.4) and the parsers of its flags. */
import { ValidationError } from "../errors.ts";
import { VERSION } from "../version.ts";

/** Event levels Sentry accepts. */
export const EVENT_LEVELS = ["debug", "info", "warning", "error", "fatal"] as const;
/** One event level. */
export type EventLevel = (typeof EVENT_LEVELS)[number];

/** User fields `--user` accepts. */
export const USER_FIELDS = ["id", "email", "username", "ip_address"] as const;

/** Parses `key:value` (the value may hold more colons); the flag name goes into the error. */
export function parseKeyValue(raw: string, flag: string): [string, string] {
  const i = raw.indexOf(":");
  const key = i > 0 ? raw.slice(0, i).trim() : "";
  if (key === "") throw new ValidationError(`--${flag} must be key:value, got '${raw}'.`, flag);
  return [key, raw.slice(i + 1)];
}

/** Parses one `--user` field: `id:…`, `email:…`, `username:…` or `ip_address:…`. */
export function parseUserField(raw: string): [string, string] {
  const [key, value] = parseKeyValue(raw, "user");
  if (!(USER_FIELDS as readonly string[]).includes(key)) {
    throw new ValidationError(
      `--user must be one of ${USER_FIELDS.map((f) => `${f}:…`).join(", ")}, got '${raw}'.`,
      "user",
    );
  }
  return [key, value];
}

/** What `event send` puts into the event. */
export interface EventInput {
  eventId: string;
  nowMs: number;
  level: EventLevel;
  message?: string;
  tags: readonly [string, string][];
  extra: readonly [string, string][];
  user: readonly [string, string][];
  fingerprint: readonly string[];
  release?: string;
  /** The build of the release (sentry-cli's `--dist`): the event's `dist`. */
  dist?: string;
  environment?: string;
  /** Log lines, oldest first, sent as breadcrumbs. */
  logLines: readonly string[];
}

/** The event payload; fields without a value are left out. */
export function buildEvent(input: EventInput): Record<string, unknown> {
  const seconds = input.nowMs / 1000;
  const event: Record<string, unknown> = {
    event_id: input.eventId,
    timestamp: seconds,
    platform: "other",
    level: input.level,
    sdk: { name: "tracker", version: VERSION },
  };
  if (input.message !== undefined) event.logentry = { formatted: input.message };
  if (input.tags.length > 0) event.tags = Object.fromEntries(input.tags);
  if (input.extra.length > 0) event.extra = Object.fromEntries(input.extra);
  if (input.user.length > 0) event.user = Object.fromEntries(input.user);
  if (input.fingerprint.length > 0) event.fingerprint = [...input.fingerprint];
  if (input.release !== undefined) event.release = input.release;
  if (input.dist !== undefined) event.dist = input.dist;
  if (input.environment !== undefined) event.environment = input.environment;
  if (input.logLines.length > 0) {
    event.breadcrumbs = {
      values: input.logLines.map((message) => ({
        timestamp: seconds,
        category: "log",
        level: "info",
        message,
      })),
    };
  }
  return event;
}
