/**
 * Issue 32 §0: table tests of `monitor run`'s pure schedule parsers (`--interval '<n> <unit>'`,
 * minutes for `--check-in-margin`/`--max-runtime`) and the monitor_config they make.
 * (parseCrontab, parseTimezone and signalExitCode have their own table tests on another branch.)
 */
import { describe, expect, test } from "bun:test";
import { ValidationError } from "../../../src/lib/errors.ts";
import { monitorConfig } from "../../../src/lib/monitor/run.ts";
import { type Interval, parseInterval, parseMinutes } from "../../../src/lib/monitor/schedule.ts";

function validationMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as Error).message;
  }
  throw new Error("expected a ValidationError");
}

describe("parseInterval (monitor run --interval)", () => {
  const ok: [string, Interval][] = [
    ["10 minutes", { value: 10, unit: "minute" }],
    ["1 minute", { value: 1, unit: "minute" }],
    ["1 hour", { value: 1, unit: "hour" }],
    ["2 hours", { value: 2, unit: "hour" }],
    ["3 days", { value: 3, unit: "day" }],
    ["1 week", { value: 1, unit: "week" }],
    ["6 months", { value: 6, unit: "month" }],
    ["1 year", { value: 1, unit: "year" }],
    ["  5   Minutes  ", { value: 5, unit: "minute" }],
    ["5minutes", { value: 5, unit: "minute" }],
    ["999999 DAYS", { value: 999999, unit: "day" }],
    // The one duration grammar (time-window.ts) is accepted too.
    ["10m", { value: 10, unit: "minute" }],
    ["2h", { value: 2, unit: "hour" }],
    ["1d", { value: 1, unit: "day" }],
    ["1w", { value: 1, unit: "week" }],
  ];
  for (const [raw, expected] of ok)
    test(`${JSON.stringify(raw)} → ${expected.value} ${expected.unit}`, () =>
      expect(parseInterval(raw)).toEqual(expected));

  const bad = [
    "0 minutes",
    "10",
    "minutes",
    "10 secs",
    "10 seconds",
    "1.5 hours",
    "-1 hour",
    "1000000 days",
    "10 m",
    "",
  ];
  for (const raw of bad) {
    test(`${JSON.stringify(raw)} is refused`, () =>
      expect(validationMessage(() => parseInterval(raw))).toBe(
        `--interval must be a duration (10m, 2h, 1d, 1w) or '<number> <unit>' with unit minute, hour, day, week, month, year (e.g. '10 minutes'), got '${raw}'.`,
      ));
  }
});

describe("parseMinutes", () => {
  const ok: [string, number][] = [
    ["1", 1],
    [" 30 ", 30],
    ["10080", 10080],
    ["00005", 5],
  ];
  for (const [raw, n] of ok)
    test(`${JSON.stringify(raw)} → ${n}`, () => expect(parseMinutes(raw, "max-runtime")).toBe(n));

  const bad = ["0", "10081", "1.5", "-5", "5m", "", "100000"];
  for (const raw of bad) {
    test(`${JSON.stringify(raw)} is refused, naming the flag`, () =>
      expect(validationMessage(() => parseMinutes(raw, "check-in-margin"))).toBe(
        `--check-in-margin must be a whole number of minutes from 1 to 10080, got '${raw}'.`,
      ));
  }
});

describe("monitorConfig", () => {
  const rows: [string, Parameters<typeof monitorConfig>[0], ReturnType<typeof monitorConfig>][] = [
    ["no schedule: none (tuning alone makes no config)", { checkInMargin: 5, timezone: "UTC" }, undefined],
    ["crontab", { schedule: "0 3 * * *" }, { schedule: { type: "crontab", value: "0 3 * * *" } }],
    [
      "interval",
      { interval: { value: 10, unit: "minute" } },
      { schedule: { type: "interval", value: 10, unit: "minute" } },
    ],
    [
      "crontab with margin, runtime and zone (minutes, as Sentry takes them)",
      { schedule: "@daily", checkInMargin: 5, maxRuntime: 30, timezone: "Europe/Vienna" },
      {
        schedule: { type: "crontab", value: "@daily" },
        checkin_margin: 5,
        max_runtime: 30,
        timezone: "Europe/Vienna",
      },
    ],
    [
      "the schedule wins over an interval when both reach it",
      { schedule: "@hourly", interval: { value: 1, unit: "hour" } },
      { schedule: { type: "crontab", value: "@hourly" } },
    ],
  ];
  for (const [name, opts, expected] of rows) test(name, () => expect(monitorConfig(opts)).toEqual(expected));
});
