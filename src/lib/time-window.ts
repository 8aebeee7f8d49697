/**
 * The one grammar of time values (issue 32 "one parser per value", API.md §22.1): durations
 * (`30s`, `5m`, `2h`, `1d`, `1w`), points in time (ISO 8601, or relative `-2h`), and windows
 * (`--period` as a duration or an absolute range, `--start`/`--end`). Parsers throw
 * ValidationError naming what is allowed.
 */
import { ValidationError } from "./errors.ts";

/** Units of a duration, in milliseconds. */
export const DURATION_UNITS_MS = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
} as const;
/** One duration unit. */
export type DurationUnit = keyof typeof DURATION_UNITS_MS;
/** A parsed duration: its number and unit as written, and its length. */
export interface Duration {
  value: number;
  unit: DurationUnit;
  ms: number;
}

/** How durations are written, for help and errors. */
export const DURATION_GRAMMAR = "<n>s, <n>m, <n>h, <n>d or <n>w (e.g. 30s, 5m, 2h, 1d, 1w)";
/** How absolute windows are written, for help and errors. */
export const WINDOW_GRAMMAR = "START..END, >=DATE, >DATE, <=DATE or <DATE (ISO 8601, no zone = UTC)";
/** Start of `<=D`/`<D` and of a lone `--end`: the server's own maximum window (API.md §22.1). */
export const OPEN_START_MS = 90 * DURATION_UNITS_MS.d;

const DURATION_RE = /^(\d{1,7})([smhdw])$/;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME_RE = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** Reads `<n><unit>` or undefined (no error): the shared matcher of the parsers below. */
function matchDuration(text: string): Duration | undefined {
  const m = DURATION_RE.exec(text);
  if (!m) return undefined;
  const value = Number(m[1]);
  const unit = m[2] as DurationUnit;
  return value > 0 ? { value, unit, ms: value * DURATION_UNITS_MS[unit] } : undefined;
}

/** Writes a length in ms as the largest exact unit (`90000` → `90s`, `7200000` → `2h`). */
export function formatDuration(ms: number): string {
  for (const unit of ["w", "d", "h", "m", "s"] as const) {
    const size = DURATION_UNITS_MS[unit];
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

/**
 * Parses a duration `<n><unit>` (unit s, m, h, d or w), optionally bounded; `flag` names the
 * flag in the error (`--interval must be …`).
 */
export function parseDuration(
  raw: string,
  flag: string,
  bounds: { minMs?: number; maxMs?: number } = {},
): Duration {
  const d = matchDuration(raw.trim());
  const { minMs = 1_000, maxMs = Number.MAX_SAFE_INTEGER } = bounds;
  if (!d) throw new ValidationError(`--${flag} must be a duration: ${DURATION_GRAMMAR}, got '${raw}'.`, flag);
  if (d.ms < minMs || d.ms > maxMs) {
    const upper = maxMs === Number.MAX_SAFE_INTEGER ? "" : ` to ${formatDuration(maxMs)}`;
    throw new ValidationError(
      `--${flag} must be from ${formatDuration(minMs)}${upper}, got '${raw.trim()}'.`,
      flag,
    );
  }
  return d;
}

/** Which end of a window a date-only value is read as (start: 00:00:00, end: 23:59:59.999). */
export type Edge = "start" | "end";

/**
 * Reads an ISO 8601 date or date-time as ms since the epoch, or undefined. No zone = UTC; a time
 * without seconds is completed (the service rejects `HH:MM`). A date alone is the start of that
 * day, or its last millisecond when it is the end of a window.
 */
export function readIsoInstant(text: string, edge: Edge): number | undefined {
  if (DATE_RE.test(text)) {
    const ms = dayStart(text);
    return ms === undefined ? undefined : ms + (edge === "end" ? DURATION_UNITS_MS.d - 1 : 0);
  }
  const m = DATETIME_RE.exec(text);
  if (!m || dayStart(m[1] as string) === undefined) return undefined;
  const [hh, mm] = (m[2] as string).split(":").map(Number) as [number, number];
  if (hh > 23 || mm > 59 || Number(m[3]?.slice(1, 3) ?? 0) > 59) return undefined;
  const zone = (m[5] ?? "Z").toUpperCase().replace(/^([+-]\d{2})(\d{2})$/, "$1:$2");
  const ms = Date.parse(`${m[1]}T${m[2]}${m[3] ?? ":00"}${zone}`);
  return Number.isFinite(ms) ? ms : undefined;
}

/** The first millisecond of a `YYYY-MM-DD` day in UTC, or undefined for a day that does not exist. */
function dayStart(date: string): number | undefined {
  const ms = Date.parse(`${date}T00:00:00Z`);
  // Some engines roll 2026-02-30 over to March; a day that does not round-trip does not exist.
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === date ? ms : undefined;
}

/**
 * Parses a point in time: ISO 8601 (see readIsoInstant), `now`, or how long before now as `-2h`
 * (also `2h` when `bareAgo`, the form of `status --since`).
 */
export function parseInstant(raw: string, flag: string, nowMs: number, edge: Edge, bareAgo = false): number {
  const text = raw.trim();
  if (text === "now") return nowMs;
  const ago = matchDuration(text.startsWith("-") ? text.slice(1) : bareAgo ? text : "");
  if (ago) return nowMs - ago.ms;
  const ms = readIsoInstant(text, edge);
  if (ms !== undefined) return ms;
  const rel = bareAgo ? "a time ago (30m, 2h, 3d, 1w)" : "a time ago (-30m, -2h, -3d)";
  throw new ValidationError(
    `--${flag} must be ${rel} or an ISO 8601 date/time (2026-11-20, 2026-11-20T14:00, 2026-11-20T14:00Z), got '${raw}'.`,
    flag,
  );
}

/**
 * Parses a point in the past for `status --since` (`30m`, `2h`, `3d`, `1w`, or ISO 8601) into ms
 * since the epoch.
 */
export function parseSince(raw: string, nowMs: number): number {
  const ms = parseInstant(raw, "since", nowMs, "start", true);
  if (ms > nowMs)
    throw new ValidationError(
      `--since must be a time ago (30m, 2h, 3d, 1w) or a past ISO 8601 date/time, got '${raw}'.`,
      "since",
    );
  return ms;
}

/** An absolute window, both ends as the service takes them (UTC ISO 8601 with `Z`). */
export interface AbsoluteWindow {
  readonly start: string;
  readonly end: string;
}

/** A window as the API modules take it: a relative `statsPeriod`, or absolute start and end. */
export type Window = string | AbsoluteWindow;

/** The query parameters of a window: `statsPeriod`, or `start` and `end`, never both (§22.1). */
export function windowQuery(w: Window): { statsPeriod?: string; start?: string; end?: string } {
  return typeof w === "string" ? { statsPeriod: w } : { start: w.start, end: w.end };
}

/** Reads `--period`'s absolute forms against `now`: [start, end] in ms, or undefined when relative. */
function readRange(text: string, nowMs: number): [number, number] | undefined {
  const range = /^(.+?)\.\.(.+)$/.exec(text);
  const at = (v: string, edge: Edge) => parseInstant(v, "period", nowMs, edge);
  if (range) return [at(range[1] as string, "start"), at(range[2] as string, "end")];
  const cmp = /^(>=|>|<=|<)(.+)$/.exec(text);
  if (!cmp) return undefined;
  const value = cmp[2] as string;
  const dateOnly = DATE_RE.test(value.trim());
  switch (cmp[1]) {
    case ">=":
      return [at(value, "start"), nowMs];
    case ">":
      return [dateOnly ? at(value, "end") + 1 : at(value, "start") + 1, nowMs];
    case "<=": {
      const end = at(value, "end");
      return [end - OPEN_START_MS, end];
    }
    default: {
      const end = at(value, "start");
      return [end - OPEN_START_MS, end];
    }
  }
}

/**
 * Parses `--period` (and `-t`): a duration (`24h`, `30m`, `2w`) or an absolute window
 * (`A..B`, `>=D`, `>D`, `<=D`, `<D`). Checks the form only; `resolveWindow` reads it against now.
 */
export function parsePeriod(raw: string): string {
  const text = raw.trim();
  if (matchDuration(text)) return text;
  try {
    if (readRange(text, 0) !== undefined) return text;
  } catch {
    // reported below with the whole grammar
  }
  throw new ValidationError(
    `--period must be a duration (30m, 24h, 14d, 2w) or a window (${WINDOW_GRAMMAR}, e.g. 2026-11-20T14:00..2026-11-20T15:30), got '${raw}'.`,
    "period",
  );
}

/** The window flags of a list command (`--period`/`-t`, `--start`, `--end`), as parsed. */
export interface WindowFlags {
  readonly period?: string;
  readonly start?: string;
  readonly end?: string;
}

/** A window ready to send and to describe. */
export interface ResolvedWindow {
  /** What the API modules take. */
  readonly window: Window;
  /** For sentences: `the last 24h` or `2026-11-20T14:00:00.000Z to 2026-11-20T15:30:00.000Z`. */
  readonly text: string;
  /** For parentheses: `last 24h` or the range. */
  readonly brief: string;
  /** For saved-cursor keys: the window as the user wrote it (`24h`, `>=2026-11-20`, `-2h..now`). */
  readonly key: string;
  /** True when no window flag was given (the command's default period). */
  readonly isDefault: boolean;
  /** The flags that repeat this window in a printed command (unquoted words). */
  readonly argv: readonly string[];
}

/** Parses a `--start`/`--end` value's form (read against now later by `resolveWindow`). */
export function parseInstantFlag(flag: "start" | "end"): (raw: string) => string {
  return (raw: string) => {
    parseInstant(raw, flag, 0, flag);
    return raw.trim();
  };
}

/**
 * Reads the window flags against `nowMs`: `--start`/`--end` (a lone `--start` ends now, a lone
 * `--end` starts 90 days before), else `--period`, else `fallback`. Refuses `--period` with
 * `--start`/`--end` and a start that is not before the end.
 */
export function resolveWindow(flags: WindowFlags, fallback: string, nowMs: number): ResolvedWindow {
  const hasEdge = flags.start !== undefined || flags.end !== undefined;
  if (hasEdge && flags.period !== undefined) {
    throw new ValidationError("Use either --period (-t) or --start/--end, not both.", "period");
  }
  const period = flags.period ?? fallback;
  // The command's own default, given or not, is not repeated in printed commands.
  const isDefault = period === fallback && !hasEdge;
  let range: [number, number] | undefined;
  let argv: string[] = isDefault ? [] : ["-t", period];
  if (hasEdge) {
    const end = flags.end === undefined ? nowMs : parseInstant(flags.end, "end", nowMs, "end");
    const start =
      flags.start === undefined ? end - OPEN_START_MS : parseInstant(flags.start, "start", nowMs, "start");
    range = [start, end];
    argv = [...(flags.start ? ["--start", flags.start] : []), ...(flags.end ? ["--end", flags.end] : [])];
  } else {
    range = readRange(period, nowMs);
  }
  if (!range) {
    return {
      window: period,
      text: `the last ${period}`,
      brief: `last ${period}`,
      key: period,
      isDefault,
      argv,
    };
  }
  const [start, end] = range;
  if (start >= end) {
    throw new ValidationError(
      `The window must start before it ends: ${new Date(start).toISOString()} is not before ${new Date(end).toISOString()}.`,
      hasEdge ? "start" : "period",
    );
  }
  const w = { start: new Date(start).toISOString(), end: new Date(end).toISOString() };
  const key = hasEdge ? `${flags.start ?? ""}..${flags.end ?? ""}` : period;
  const text = `${w.start} to ${w.end}`;
  return { window: w, text, brief: text, key, isDefault: false, argv };
}
