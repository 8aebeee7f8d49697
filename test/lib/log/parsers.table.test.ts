/**
 * Issue 32 §0: table tests of the pure parsers of the log commands (`--interval` of `--follow`,
 * log IDs, `--trace`, the search string tracker builds, nanosecond times, severity markers).
 */
import { describe, expect, test } from "bun:test";
import type { LogRow } from "../../../src/lib/api/logs.ts";
import { ValidationError } from "../../../src/lib/errors.ts";
import {
  logNs,
  RecentIds,
  severityMarker,
  sortLogsAscending,
  toLogItem,
} from "../../../src/lib/log/items.ts";
import { parseInterval, parseLogId } from "../../../src/lib/log/options.ts";
import { joinQuery, parseTraceFilter } from "../../../src/lib/log/query.ts";

const TRACE = "a1b2c3d4e5f60718293a4b5c6d7e8f90";

/** The message of the ValidationError `fn` throws (fails the test when it throws none or another). */
function validationMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as Error).message;
  }
  throw new Error("expected a ValidationError");
}

describe("parseInterval (log list --follow)", () => {
  const ok: [string, number][] = [
    ["1s", 1_000],
    ["2s", 2_000],
    [" 30s ", 30_000],
    ["1m", 60_000],
    ["1h", 3_600_000],
    ["60m", 3_600_000],
    ["3600s", 3_600_000],
  ];
  for (const [raw, ms] of ok)
    test(`${JSON.stringify(raw)} → ${ms} ms`, () => expect(parseInterval(raw)).toBe(ms));

  // Not the one duration grammar (a bare number, milliseconds, spaces, fractions): its message.
  const malformed = [
    "0",
    "0s",
    "2",
    "3600",
    "999ms",
    "1000ms",
    "",
    "s",
    "1.5s",
    "-1s",
    "2 s",
    "abc",
    "12345678",
  ];
  for (const raw of malformed) {
    test(`${JSON.stringify(raw)} is refused`, () =>
      expect(validationMessage(() => parseInterval(raw))).toBe(
        `--interval must be a duration: <n>s, <n>m, <n>h, <n>d or <n>w (e.g. 30s, 5m, 2h, 1d, 1w), got '${raw}'.`,
      ));
  }
  // A duration out of the follow range.
  for (const raw of ["2h", "61m", "3601s", "2d"]) {
    test(`${JSON.stringify(raw)} is out of range`, () =>
      expect(validationMessage(() => parseInterval(raw))).toBe(
        `--interval must be from 1s to 1h, got '${raw}'.`,
      ));
  }
});

describe("parseLogId", () => {
  const hex = "0123456789abcdef0123456789abcdef";
  const ok: [string, string][] = [
    [hex, hex],
    [hex.toUpperCase(), hex],
    [` ${hex}\n`, hex],
    ["01234567-89ab-cdef-0123-456789abcdef", hex],
    ["01234567-89AB-CDEF-0123-456789ABCDEF", hex],
  ];
  for (const [raw, id] of ok) test(`${JSON.stringify(raw)} → ${id}`, () => expect(parseLogId(raw)).toBe(id));

  const bad: [string, string][] = [
    ["", ""],
    ["0123", "0123"],
    [`${hex}0`, `${hex}0`],
    ["0123456789abcdef0123456789abcdeg", "0123456789abcdef0123456789abcdeg"],
    ["0123456789-abcdef0123456789abcdef", "0123456789-abcdef0123456789abcdef"],
    ["  xyz  ", "xyz"],
  ];
  for (const [raw, shown] of bad) {
    test(`${JSON.stringify(raw)} is refused`, () =>
      expect(validationMessage(() => parseLogId(raw))).toBe(
        `Invalid log ID '${shown}': expected 32 hexadecimal characters (dashes of the UUID form allowed) (the ID column of \`tracker log list\`).`,
      ));
  }
});

describe("parseTraceFilter (--trace)", () => {
  const ok: [string, string][] = [
    [TRACE, TRACE],
    [TRACE.toUpperCase(), TRACE],
    ["a1b2c3d4-e5f6-0718-293a-4b5c6d7e8f90", TRACE],
    [` ${TRACE} `, TRACE],
  ];
  for (const [raw, id] of ok)
    test(`${JSON.stringify(raw)} → ${id}`, () => expect(parseTraceFilter(raw)).toBe(id));

  test("a prefix cannot be searched: the whole ID is asked for", () =>
    expect(validationMessage(() => parseTraceFilter(" a1b2c3d4 "))).toBe(
      "Invalid trace ID 'a1b2c3d4': expected 32 hexadecimal characters (dashes of the UUID form allowed).",
    ));
  for (const raw of ["", "xyz", "a1b2", `${TRACE}00`]) {
    test(`${JSON.stringify(raw)} is not a trace ID`, () =>
      expect(validationMessage(() => parseTraceFilter(raw))).toStartWith(`Invalid trace ID '${raw}': `));
  }
});

describe("joinQuery (the search string tracker sends)", () => {
  const rows: [string, (string | undefined)[], string | undefined][] = [
    ["nothing", [], undefined],
    ["only blanks", [undefined, "  ", ""], undefined],
    ["one term as it is", ["level:error"], "level:error"],
    ["one term with OR: no parentheses needed", ["a OR b"], "a OR b"],
    ["terms joined by a space (AND)", [`trace:${TRACE}`, "slow"], `trace:${TRACE} slow`],
    [
      "a user query with OR is parenthesised when trace: is added",
      [`trace:${TRACE}`, "a OR b"],
      `trace:${TRACE} (a OR b)`,
    ],
    [
      "OR anywhere in it",
      [`trace:${TRACE}`, "level:error OR level:fatal"],
      `trace:${TRACE} (level:error OR level:fatal)`,
    ],
    ["the query is trimmed first", [`trace:${TRACE}`, "  a OR b  "], `trace:${TRACE} (a OR b)`],
    ["a blank term does not count as one", [undefined, "a OR b"], "a OR b"],
    ["lower-case or is no operator", [`trace:${TRACE}`, "a or b"], `trace:${TRACE} a or b`],
    ["OR inside a word is none", [`trace:${TRACE}`, "ORDER:1 COLOR"], `trace:${TRACE} ORDER:1 COLOR`],
  ];
  for (const [name, terms, expected] of rows) test(name, () => expect(joinQuery(...terms)).toBe(expected));
});

/** A log row with the given time fields. */
const row = (id: string, timestamp: string, precise?: string | number | null): LogRow => ({
  "sentry.item_id": id,
  timestamp,
  ...(precise === undefined ? {} : { timestamp_precise: precise }),
});

describe("logNs (nanoseconds of a log)", () => {
  const rows: [string, LogRow, bigint][] = [
    [
      "timestamp_precise as text, beyond 2^53, exact",
      row("a", "2026-01-15T11:58:59+00:00", "1768478339767109001"),
      1768478339767109001n,
    ],
    [
      "timestamp_precise as a number",
      row("a", "2026-01-15T11:58:59+00:00", 1768478339000000),
      1768478339000000n,
    ],
    [
      "no timestamp_precise: nanoseconds from the timestamp",
      row("a", "2026-01-15T11:58:59+00:00"),
      1768478339000000000n,
    ],
    [
      "timestamp_precise null: from the timestamp",
      row("a", "2026-01-15T11:58:59Z", null),
      1768478339000000000n,
    ],
    ["timestamp with milliseconds", row("a", "2026-01-15T11:58:59.250Z"), 1768478339250000000n],
    ["timestamp with an offset", row("a", "2026-01-15T12:58:59+01:00"), 1768478339000000000n],
    [
      "timestamp_precise that is not a number: from the timestamp",
      row("a", "2026-01-15T11:58:59Z", "soon"),
      1768478339000000000n,
    ],
    ["nothing usable: 0", row("a", "not a time"), 0n],
  ];
  for (const [name, r, ns] of rows) test(name, () => expect(logNs(r)).toBe(ns));
});

describe("sortLogsAscending", () => {
  test("by nanoseconds (precise or from the timestamp), equal times by id", () => {
    const rows = [
      row("c", "2026-01-15T11:59:00Z"),
      row("b", "2026-01-15T11:58:59Z", "1768478339500000000"),
      row("a", "2026-01-15T11:58:59Z", "1768478339500000000"),
      row("d", "2026-01-15T11:58:59Z"),
    ];
    expect(sortLogsAscending(rows).map((r) => r["sentry.item_id"])).toEqual(["d", "a", "b", "c"]);
  });
});

describe("toLogItem", () => {
  test("ids lower-cased, missing fields null, the precise time as text", () => {
    expect(
      toLogItem({
        "sentry.item_id": "ABCDEF",
        timestamp: "2026-01-15T11:58:59+00:00",
        timestamp_precise: 1768478339000000,
        trace: TRACE.toUpperCase(),
        "project.id": 300001,
      }),
    ).toEqual({
      id: "abcdef",
      timestamp: "2026-01-15T11:58:59+00:00",
      timestampPrecise: "1768478339000000",
      severity: null,
      severityNumber: null,
      message: "",
      traceId: TRACE,
      spanId: null,
      project: null,
      projectId: "300001",
    });
  });
});

describe("severityMarker", () => {
  const rows: [string | null | undefined, number | null | undefined, string][] = [
    ["info", 9, "INFO"],
    ["error", 17, "ERROR"],
    [undefined, 24, "FATAL"],
    [undefined, 21, "FATAL"],
    [undefined, 20, "ERROR"],
    [undefined, 13, "WARN"],
    [undefined, 12, "INFO"],
    [undefined, 5, "DEBUG"],
    [undefined, 1, "TRACE"],
    ["warning", 0, "WARN"],
    ["critical", 25, "FATAL"],
    ["Debug", null, "DEBUG"],
    [" notice ", undefined, "NOTICE"],
    ["extraordinarily-loud", undefined, "EXTRAORD"],
    ["", undefined, "-"],
    [null, null, "-"],
  ];
  for (const [name, n, expected] of rows)
    test(`${JSON.stringify(name)}, ${n} → ${expected}`, () => expect(severityMarker(name, n)).toBe(expected));
});

describe("RecentIds", () => {
  test("remembers at most its capacity, forgetting the least recently added", () => {
    const ids = new RecentIds(2);
    ids.add("a");
    ids.add("b");
    ids.add("a");
    ids.add("c");
    expect([ids.has("a"), ids.has("b"), ids.has("c"), ids.size]).toEqual([true, false, true, 2]);
  });
});
