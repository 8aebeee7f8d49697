import { describe, expect, test } from "bun:test";
import { ValidationError } from "../../src/lib/errors.ts";
import { parseInterval as parseFollowInterval } from "../../src/lib/log/options.ts";
import { parseInterval as parseMonitorInterval } from "../../src/lib/monitor/schedule.ts";
import { parseInterval as parseQueryInterval } from "../../src/commands/query/index.ts";
import {
  formatDuration,
  parseDuration,
  parseInstant,
  parsePeriod,
  parseSince,
  resolveWindow,
  windowQuery,
} from "../../src/lib/time-window.ts";

const NOW = Date.parse("2026-11-28T12:00:00Z");
const iso = (ms: number) => new Date(ms).toISOString();

describe("parseDuration: one grammar", () => {
  test.each([
    ["30s", 30_000, "s"],
    ["5m", 300_000, "m"],
    ["2h", 7_200_000, "h"],
    ["1d", 86_400_000, "d"],
    ["1w", 604_800_000, "w"],
    [" 90d ", 7_776_000_000, "d"],
  ])("%s", (raw, ms, unit) => {
    expect(parseDuration(raw, "x")).toMatchObject({ ms, unit });
  });

  test.each([
    ["", "--x must be a duration"],
    ["0m", "--x must be a duration"],
    ["5", "--x must be a duration"],
    ["5ms", "--x must be a duration"],
    ["1.5h", "--x must be a duration"],
    ["-2h", "--x must be a duration"],
    ["10 minutes", "--x must be a duration"],
    ["2y", "--x must be a duration"],
  ])("refuses %p", (raw, message) => {
    expect(() => parseDuration(raw, "x")).toThrow(message);
    expect(() => parseDuration(raw, "x")).toThrow(ValidationError);
  });

  test("bounds name the range", () => {
    expect(() => parseDuration("2h", "interval", { minMs: 1_000, maxMs: 3_600_000 })).toThrow(
      "--interval must be from 1s to 1h, got '2h'.",
    );
    expect(formatDuration(90_000)).toBe("90s");
    expect(formatDuration(1_209_600_000)).toBe("2w");
  });
});

describe("every --interval uses it", () => {
  test("log follow: ms, 1s to 1h", () => {
    expect(parseFollowInterval("5s")).toBe(5_000);
    expect(parseFollowInterval("1m")).toBe(60_000);
    for (const bad of ["500ms", "2", "2h", "soon"])
      expect(() => parseFollowInterval(bad)).toThrow(ValidationError);
  });
  test("query: seconds, weeks too", () => {
    expect(parseQueryInterval("30s")).toBe(30);
    expect(parseQueryInterval("1w")).toBe(604_800);
    for (const bad of ["0h", "1hour", ""])
      expect(() => parseQueryInterval(bad)).toThrow("--interval must be a duration");
  });
  test("monitor run: the short form, and '10 minutes' as an alias", () => {
    expect(parseMonitorInterval("10m")).toEqual({ value: 10, unit: "minute" });
    expect(parseMonitorInterval("2h")).toEqual({ value: 2, unit: "hour" });
    expect(parseMonitorInterval("1w")).toEqual({ value: 1, unit: "week" });
    expect(parseMonitorInterval("10 minutes")).toEqual({ value: 10, unit: "minute" });
    expect(parseMonitorInterval("1 month")).toEqual({ value: 1, unit: "month" });
    expect(() => parseMonitorInterval("30s")).toThrow("--interval must be from 1m, got '30s'.");
    expect(() => parseMonitorInterval("10 fortnights")).toThrow(ValidationError);
  });
});

describe("parseInstant and parseSince", () => {
  test.each([
    ["2026-11-20", "start", "2026-11-20T00:00:00.000Z"],
    ["2026-11-20", "end", "2026-11-20T23:59:59.999Z"],
    ["2026-11-20T14:00", "start", "2026-11-20T14:00:00.000Z"],
    ["2026-11-20T14:00:30.5", "end", "2026-11-20T14:00:30.500Z"],
    ["2026-11-20T14:00Z", "start", "2026-11-20T14:00:00.000Z"],
    ["2026-11-20T14:00+02:00", "start", "2026-11-20T12:00:00.000Z"],
    ["2026-11-20T14:00-0500", "start", "2026-11-20T19:00:00.000Z"],
    ["-2h", "start", "2026-11-28T10:00:00.000Z"],
    ["now", "end", "2026-11-28T12:00:00.000Z"],
  ] as const)("%s as %s", (raw, edge, want) => {
    expect(iso(parseInstant(raw, "start", NOW, edge))).toBe(want);
  });

  test.each(["2026-02-30", "2026-11-20T24:00", "2026-11-20T14:60", "2h", "yesterday", "20261120"])(
    "refuses %p",
    (raw) => {
      expect(() => parseInstant(raw, "start", NOW, "start")).toThrow(
        `--start must be a time ago (-30m, -2h, -3d) or an ISO 8601 date/time`,
      );
    },
  );

  test("--since takes a bare time ago and refuses the future", () => {
    expect(iso(parseSince("30m", NOW))).toBe("2026-11-28T11:30:00.000Z");
    expect(iso(parseSince("2026-11-20", NOW))).toBe("2026-11-20T00:00:00.000Z");
    expect(() => parseSince("2026-12-01", NOW)).toThrow("or a past ISO 8601 date/time, got '2026-12-01'.");
    expect(() => parseSince("soon", NOW)).toThrow("--since must be a time ago (30m, 2h, 3d, 1w)");
  });
});

describe("windows", () => {
  const at = (period: string) =>
    windowQuery(resolveWindow({ period: parsePeriod(period) }, "90d", NOW).window);

  test.each([
    ["24h", { statsPeriod: "24h" }],
    ["30m", { statsPeriod: "30m" }],
    [
      "2026-11-20T14:00..2026-11-20T15:30",
      { start: "2026-11-20T14:00:00.000Z", end: "2026-11-20T15:30:00.000Z" },
    ],
    ["2026-11-20..2026-11-21", { start: "2026-11-20T00:00:00.000Z", end: "2026-11-21T23:59:59.999Z" }],
    [">=2026-11-20", { start: "2026-11-20T00:00:00.000Z", end: "2026-11-28T12:00:00.000Z" }],
    [">2026-11-20", { start: "2026-11-21T00:00:00.000Z", end: "2026-11-28T12:00:00.000Z" }],
    ["<=2026-11-20", { start: "2026-08-22T23:59:59.999Z", end: "2026-11-20T23:59:59.999Z" }],
    ["<2026-11-20", { start: "2026-08-22T00:00:00.000Z", end: "2026-11-20T00:00:00.000Z" }],
    ["-2h..now", { start: "2026-11-28T10:00:00.000Z", end: "2026-11-28T12:00:00.000Z" }],
  ])("--period %s", (period, want) => {
    expect(at(period)).toEqual(want);
  });

  test.each([
    "0d",
    "1y",
    "2026-11-20..",
    "..2026-11-20",
    ">=",
    "2026-11-20",
    "abc",
    "2026-13-01..2026-13-02",
  ])("--period refuses %p", (raw) => {
    expect(() => parsePeriod(raw)).toThrow("--period must be a duration (30m, 24h, 14d, 2w) or a window");
  });

  test("--start/--end: a lone start ends now, a lone end starts 90 days before", () => {
    expect(resolveWindow({ start: "-2h" }, "24h", NOW)).toMatchObject({
      window: { start: "2026-11-28T10:00:00.000Z", end: "2026-11-28T12:00:00.000Z" },
      argv: ["--start", "-2h"],
      key: "-2h..",
    });
    expect(resolveWindow({ end: "2026-11-20" }, "24h", NOW).window).toEqual({
      start: "2026-08-22T23:59:59.999Z",
      end: "2026-11-20T23:59:59.999Z",
    });
  });

  test("the default window is relative and marked as the default", () => {
    expect(resolveWindow({}, "24h", NOW)).toEqual({
      window: "24h",
      text: "the last 24h",
      brief: "last 24h",
      key: "24h",
      isDefault: true,
      argv: [],
    });
  });

  test("refuses --period with --start/--end and a start that is not before the end", () => {
    expect(() => resolveWindow({ period: "24h", start: "-1h" }, "24h", NOW)).toThrow(
      "Use either --period (-t) or --start/--end, not both.",
    );
    expect(() => resolveWindow({ start: "2026-11-21T00:00", end: "2026-11-20T00:00" }, "24h", NOW)).toThrow(
      "The window must start before it ends",
    );
    expect(() => resolveWindow({ period: ">=2026-12-01" }, "24h", NOW)).toThrow(ValidationError);
  });
});
