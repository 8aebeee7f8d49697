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

/** Parses `--schedule`: five crontab fields, or a macro such as `@daily`. */
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
