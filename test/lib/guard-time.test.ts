/** Guard: relative times switch from hours to days at exactly 24 h ("24h ago" never appears). */
import { expect, test } from "bun:test";
import { relativeTime } from "../../src/lib/format/time.ts";

const NOW = Date.parse("2026-01-15T12:00:00Z");
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const H = 3_600_000;

test("23 h is hours; exactly 24 h and just past it are 1d ago", () => {
  expect(relativeTime(ago(23 * H), NOW)).toBe("23h ago");
  expect(relativeTime(ago(24 * H - 1000), NOW)).toBe("23h ago");
  expect(relativeTime(ago(24 * H), NOW)).toBe("1d ago");
  expect(relativeTime(ago(24 * H + 59 * 60_000), NOW)).toBe("1d ago");
  for (let m = 0; m < 120; m++) expect(relativeTime(ago(23 * H + m * 60_000), NOW)).not.toBe("24h ago");
});
