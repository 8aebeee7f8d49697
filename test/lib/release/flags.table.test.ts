/**
 * Issue 32 §0: table tests of the release commands' pure parsers (version, --env, the time flags).
 * (parseCommitSpec, parseGitLog and repoNameFromUrl have their own table tests on another branch.)
 */
import { describe, expect, test } from "bun:test";
import { ValidationError } from "../../../src/lib/errors.ts";
import { parseEnvironment, parseTime, parseVersion, resolveTime } from "../../../src/lib/release/flags.ts";

function validationMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as Error).message;
  }
  throw new Error("expected a ValidationError");
}

describe("parseVersion", () => {
  const ok: [string, string][] = [
    ["web@1.5.0", "web@1.5.0"],
    ["  1.0  ", "1.0"],
    ["abc123def", "abc123def"],
    ["v1 beta", "v1 beta"],
    ["...", "..."],
    ["latest2", "latest2"],
    ["x".repeat(200), "x".repeat(200)],
  ];
  for (const [raw, v] of ok)
    test(`${JSON.stringify(raw).slice(0, 40)} → accepted`, () => expect(parseVersion(raw)).toBe(v));

  test("empty", () =>
    expect(validationMessage(() => parseVersion("  "))).toBe("The release version is empty."));
  test("201 characters", () =>
    expect(validationMessage(() => parseVersion("x".repeat(201)))).toBe(
      "The release version is 201 characters long; at most 200 are allowed.",
    ));
  for (const raw of ["a/b", "a\\b", "a\tb", "a\nb", "a\rb", ".", "..", "latest", " latest "]) {
    const text = raw.trim();
    test(`${JSON.stringify(raw)} is refused`, () =>
      expect(validationMessage(() => parseVersion(raw))).toBe(
        `Invalid release version '${text}': it may not contain /, \\, tabs or line breaks, nor be '.', '..' or 'latest'.`,
      ));
  }
});

describe("parseEnvironment", () => {
  const ok: [string, string][] = [
    ["production", "production"],
    [" staging ", "staging"],
    ["e".repeat(64), "e".repeat(64)],
    ["eu west", "eu west"],
  ];
  for (const [raw, v] of ok)
    test(`${JSON.stringify(raw).slice(0, 40)} → ${v.slice(0, 20)}`, () =>
      expect(parseEnvironment(raw)).toBe(v));

  for (const raw of ["", "  ", "e".repeat(65), "a/b", "a\nb", "a\rb"]) {
    test(`${JSON.stringify(raw).slice(0, 40)} is refused`, () =>
      expect(validationMessage(() => parseEnvironment(raw))).toBe(
        `--env must be 1-64 characters without '/' or line breaks, got '${raw}'.`,
      ));
  }
});

describe("parseTime", () => {
  const ok: [string, string][] = [
    ["now", "now"],
    [" now ", "now"],
    ["2026-01-15T12:00:00Z", "2026-01-15T12:00:00.000Z"],
    ["2026-01-15T12:00:00", "2026-01-15T12:00:00.000Z"],
    ["2026-01-15 12:00", "2026-01-15T12:00:00.000Z"],
    ["2026-01-15T12:00:00.250Z", "2026-01-15T12:00:00.250Z"],
    ["2026-01-15T13:00:00+01:00", "2026-01-15T12:00:00.000Z"],
    ["2026-01-15T13:00:00+0100", "2026-01-15T12:00:00.000Z"],
    ["2026-01-15T07:00:00-05:00", "2026-01-15T12:00:00.000Z"],
    ["2026-01-15", "2026-01-15T00:00:00.000Z"],
    ["1768478400", "2026-01-15T12:00:00.000Z"],
    ["1768478400.5", "2026-01-15T12:00:00.500Z"],
    ["946684800", "2000-01-01T00:00:00.000Z"],
  ];
  for (const [raw, iso] of ok)
    test(`${JSON.stringify(raw)} → ${iso}`, () => expect(parseTime(raw)).toBe(iso));

  for (const raw of [
    "",
    "yesterday",
    "NOW",
    "2026-13-45",
    "2026-01-15T25:00:00Z",
    "12345678",
    "176847840000",
    "15/01/2026",
    "2026-01-15T12",
  ]) {
    test(`${JSON.stringify(raw)} is refused`, () =>
      expect(validationMessage(() => parseTime(raw))).toBe(
        `Expected a time like 2026-01-15T12:00:00Z, 2026-01-15, Unix seconds or 'now', got '${raw}'.`,
      ));
  }
});

describe("resolveTime", () => {
  const NOW = Date.parse("2026-01-15T12:00:00Z");
  const rows: [string | undefined, string | undefined][] = [
    [undefined, undefined],
    ["now", "2026-01-15T12:00:00.000Z"],
    ["2025-12-31T00:00:00.000Z", "2025-12-31T00:00:00.000Z"],
  ];
  for (const [value, expected] of rows)
    test(`${value} → ${expected}`, () => expect(resolveTime(value, NOW)).toBe(expected));
});
