/**
 * Pure parsers of `monitor run`'s schedule flags (API.md §18.4 `monitor_config`): a crontab, an
 * interval `<n> <unit>`, minutes, a time zone. Each throws ValidationError naming what is allowed.
 */
import { ValidationError } from "../errors.ts";
import { parseDuration } from "../time-window.ts";

/** Interval units Sentry accepts in `monitor_config.schedule`. */
export const INTERVAL_UNITS = ["minute", "hour", "day", "week", "month", "year"] as const;
/** One interval unit. */
export type IntervalUnit = (typeof INTERVAL_UNITS)[number];

/** A parsed `--interval`. */
export interface Interval {
  value: number;
  unit: IntervalUnit;
}

const CRON_MACROS = new Set(["@yearly", "@annually", "@monthly", "@weekly", "@daily", "@hourly"]);
const CRON_FIELD_RE = /^[0-9A-Za-z*/,\-?LW#]+$/;

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

/** The five crontab fields: name, range, and the names a value may use (month and weekday). */
const CRON_FIELDS = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12, names: MONTHS, base: 1 },
  { name: "day of week", min: 0, max: 7, names: DAYS, base: 0 },
] as const;

type CronField = (typeof CRON_FIELDS)[number];

/** The number of one value of a field (a number, a name, `5L`, `1#2`, `15W`); undefined when malformed. */
function cronValue(field: CronField, text: string): number | undefined {
  const t = text.toLowerCase().replace(/(#\d)$|([lw])$/, "");
  if (/^\d{1,2}$/.test(t)) return Number(t);
  const names: readonly string[] | undefined = "names" in field ? field.names : undefined;
  const i = names ? names.indexOf(t) : -1;
  return i >= 0 && "base" in field ? i + field.base : undefined;
}

/** Why one field is out of range or malformed, or undefined when it is fine. */
function cronFieldProblem(field: CronField, text: string): string | undefined {
  for (const item of text.split(",")) {
    const [range = "", step, extra] = item.split("/");
    if (extra !== undefined || (step !== undefined && !(/^\d{1,2}$/.test(step) && Number(step) >= 1))) {
      return `a step must be a whole number from 1, got '${item}'`;
    }
    if (range === "*" || range === "?" || range.toLowerCase() === "l") continue;
    const ends = range.split("-");
    if (ends.length > 2) return `'${item}' is not a value or a range`;
    const values = ends.map((e) => cronValue(field, e));
    if (values.some((v) => v === undefined)) return `'${item}' is not a value or a range`;
    const bad = values.find((v) => (v as number) < field.min || (v as number) > field.max);
    if (bad !== undefined) return `${bad} is outside ${field.min}-${field.max}`;
    if (values.length === 2 && (values[0] as number) > (values[1] as number)) {
      return `the range '${range}' runs backwards`;
    }
  }
  return undefined;
}

/**
 * Parses `--schedule`: five crontab fields (minute 0-59, hour 0-23, day of month 1-31, month 1-12
 * or JAN-DEC, day of week 0-7 or SUN-SAT; lists, ranges, steps) or a macro such as `@daily`. Out
 * of range is refused here, before anything is sent.
 */
export function parseCrontab(raw: string): string {
  const text = raw.trim().replace(/\s+/g, " ");
  if (CRON_MACROS.has(text.toLowerCase())) return text.toLowerCase();
  const fields = text.split(" ");
  if (fields.length !== 5 || !fields.every((f) => CRON_FIELD_RE.test(f))) {
    throw new ValidationError(
      `--schedule must be a crontab of five fields (e.g. '0 3 * * *') or @hourly, @daily, @weekly, @monthly, @yearly, got '${raw}'.`,
      "schedule",
    );
  }
  fields.forEach((f, i) => {
    const field = CRON_FIELDS[i] as CronField;
    const problem = cronFieldProblem(field, f);
    if (problem) {
      throw new ValidationError(
        `--schedule '${raw}': the ${field.name} field (${field.min}-${field.max}) is wrong: ${problem}.`,
        "schedule",
      );
    }
  });
  return text;
}

const SHORT_UNITS: Record<string, IntervalUnit> = { m: "minute", h: "hour", d: "day", w: "week" };

/**
 * Parses `--interval`: the one duration grammar (`10m`, `1h`, `1d`, `1w`; time-window.ts) or its
 * spelled-out alias `'<n> <unit>'` (singular or plural: `10 minutes`, `1 month`).
 */
export function parseInterval(raw: string): Interval {
  if (/^\s*\d+[smhdw]\s*$/.test(raw)) {
    const d = parseDuration(raw, "interval", { minMs: 60_000 });
    return { value: d.value, unit: SHORT_UNITS[d.unit] as IntervalUnit };
  }
  const m = /^\s*(\d{1,6})\s*([a-z]+?)s?\s*$/i.exec(raw);
  const unit = m?.[2]?.toLowerCase() as IntervalUnit | undefined;
  const value = Number(m?.[1]);
  if (!m || !unit || !INTERVAL_UNITS.includes(unit) || value < 1) {
    throw new ValidationError(
      `--interval must be a duration (10m, 2h, 1d, 1w) or '<number> <unit>' with unit ${INTERVAL_UNITS.join(", ")} (e.g. '10 minutes'), got '${raw}'.`,
      "interval",
    );
  }
  return { value, unit };
}

/** Parses a whole number of minutes (1 to 10080) for `--check-in-margin` and `--max-runtime`. */
export function parseMinutes(raw: string, name: string): number {
  const text = raw.trim();
  const n = Number(text);
  if (!/^\d{1,5}$/.test(text) || n < 1 || n > 10_080) {
    throw new ValidationError(
      `--${name} must be a whole number of minutes from 1 to 10080, got '${raw}'.`,
      name,
    );
  }
  return n;
}

/** Parses `--failure-issue-threshold`/`--recovery-threshold`: consecutive check-ins, 1 to 720. */
export function parseCheckInCount(raw: string, name: string): number {
  const text = raw.trim();
  const n = Number(text);
  if (!/^\d{1,3}$/.test(text) || n < 1 || n > 720) {
    throw new ValidationError(
      `--${name} must be a whole number of check-ins from 1 to 720, got '${raw}'.`,
      name,
    );
  }
  return n;
}

/** Parses `--timezone`: an IANA zone name the runtime knows (`Europe/Vienna`, `UTC`). */
export function parseTimezone(raw: string): string {
  const text = raw.trim();
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: text });
    if (text !== "") return text;
  } catch {
    // reported below
  }
  throw new ValidationError(
    `--timezone must be an IANA time zone such as UTC or Europe/Vienna, got '${raw}'.`,
    "timezone",
  );
}
