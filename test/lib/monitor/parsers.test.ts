/** Table tests of `monitor run`'s pure parsers: crontab, time zone, signal exit codes. */
import { describe, expect, test } from "bun:test";
import { ValidationError } from "../../../src/lib/errors.ts";
import { FORWARDED_SIGNALS, signalExitCode } from "../../../src/lib/monitor/child.ts";
import { parseCrontab, parseTimezone } from "../../../src/lib/monitor/schedule.ts";

describe("parseCrontab", () => {
  test.each([
    ["0 3 * * *", "0 3 * * *"],
    ["  0   3 * *  * ", "0 3 * * *"],
    ["*/15 * * * *", "*/15 * * * *"],
    ["0 9-17 * * MON-FRI", "0 9-17 * * MON-FRI"],
    ["0 0 1,15 JAN-MAR *", "0 0 1,15 JAN-MAR *"],
    ["59 23 31 12 7", "59 23 31 12 7"],
    ["0 0 L * 5#2", "0 0 L * 5#2"],
    ["0 0 15W * ?", "0 0 15W * ?"],
    ["0-30/5 * * * *", "0-30/5 * * * *"],
    ["@DAILY", "@daily"],
    ["@hourly", "@hourly"],
  ])("%s is accepted", (raw, out) => {
    expect(parseCrontab(raw)).toBe(out);
  });

  test.each([
    ["60 * * * *", "the minute field (0-59) is wrong: 60 is outside 0-59"],
    ["0 24 * * *", "the hour field (0-23) is wrong: 24 is outside 0-23"],
    ["0 0 0 * *", "the day of month field (1-31) is wrong: 0 is outside 1-31"],
    ["0 0 32 * *", "32 is outside 1-31"],
    ["0 0 * 13 *", "the month field (1-12) is wrong: 13 is outside 1-12"],
    ["0 0 * 0 *", "0 is outside 1-12"],
    ["0 0 * * 8", "the day of week field (0-7) is wrong: 8 is outside 0-7"],
    ["0 17-9 * * *", "the range '17-9' runs backwards"],
    ["*/0 * * * *", "a step must be a whole number from 1"],
    ["0 0 * FOO *", "'FOO' is not a value or a range"],
    ["0 3 * *", "must be a crontab of five fields"],
    ["0 3 * * * *", "must be a crontab of five fields"],
    ["@often", "must be a crontab of five fields"],
  ])("%s is refused: %s", (raw, why) => {
    expect(() => parseCrontab(raw)).toThrow(ValidationError);
    expect(() => parseCrontab(raw)).toThrow(why);
  });
});

describe("parseTimezone", () => {
  test.each([["UTC"], ["Europe/Vienna"], ["America/New_York"], [" Asia/Tokyo "]])("%s", (tz) => {
    expect(parseTimezone(tz)).toBe(tz.trim());
  });
  test.each([[""], ["Mars/Olympus"], ["Europe/"], ["not a zone"]])("'%s' is refused", (tz) => {
    expect(() => parseTimezone(tz)).toThrow(ValidationError);
  });
});

describe("signalExitCode", () => {
  test.each([
    ["SIGHUP", 129],
    ["SIGINT", 130],
    ["SIGKILL", 137],
    ["SIGTERM", 143],
  ])("%s → %d", (sig, code) => {
    expect(signalExitCode(sig)).toBe(code);
  });
  test("the forwarded signals are INT, TERM and HUP", () => {
    expect([...FORWARDED_SIGNALS]).toEqual(["SIGINT", "SIGTERM", "SIGHUP"]);
  });
});
