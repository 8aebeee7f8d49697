/**
 * Issue 32 §0 guard: text is never cut inside a surrogate pair, wherever tracker cuts it (the JSON
 * trimmer, table cells, --format md within --max-chars, log messages and attributes on a
 * terminal, --logfile lines sent with an event). Each sweep tries every cut position.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { LOG_LINE_MAX_CHARS, tailLines } from "../../src/lib/envelope/logfile.ts";
import { formatLogAttributes, formatLogTable } from "../../src/lib/format/log-table.ts";
import { renderMarkdown } from "../../src/lib/format/markdown.ts";
import { truncate } from "../../src/lib/format/table.ts";
import type { LogItem } from "../../src/lib/log/items.ts";
import { headUnits } from "../../src/lib/text-head.ts";
import { fitJson } from "../../src/lib/trim/fit.ts";
import { tempDir } from "../helpers/cli.ts";

/** The positions of lone surrogate halves in `s` (empty when every pair is whole). */
function loneHalves(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else out.push(i);
    } else if (c >= 0xdc00 && c <= 0xdfff) out.push(i);
  }
  return out;
}

/** Every string in a JSON value. */
function strings(v: unknown): string[] {
  if (typeof v === "string") return [v];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (v && typeof v === "object") return Object.values(v).flatMap(strings);
  return [];
}

/** Text with pairs at odd and even offsets: emoji, a rare CJK character, plain letters. */
const MIXED = "a😀b𠀋cd🎉".repeat(80);

describe("headUnits", () => {
  const rows: [string, number, string][] = [
    ["abc", 2, "ab"],
    ["abc", 3, "abc"],
    ["abc", 10, "abc"],
    ["abc", 0, ""],
    ["abc", -1, ""],
    ["a😀b", 1, "a"],
    ["a😀b", 2, "a"],
    ["a😀b", 3, "a😀"],
    ["😀😀", 1, ""],
    ["😀😀", 3, "😀"],
  ];
  for (const [s, n, expected] of rows)
    test(`${JSON.stringify(s)}, ${n} → ${JSON.stringify(expected)}`, () =>
      expect(headUnits(s, n)).toBe(expected));
});

describe("no cut splits a surrogate pair", () => {
  test("the JSON trimmer (--max-chars on JSON)", () => {
    const bad: number[] = [];
    for (let n = 40; n < 400; n++) {
      // The strings themselves: JSON.stringify would escape a lone half and hide it.
      const doc = fitJson({ title: MIXED, id: "x" }, n);
      if (strings(doc).some((s) => loneHalves(s).length > 0)) bad.push(n);
    }
    expect(bad).toEqual([]);
    expect(JSON.stringify(fitJson({ title: MIXED, id: "x" }, 100)).length).toBeLessThanOrEqual(100);
  });

  test("--format md within --max-chars", () => {
    const bad: number[] = [];
    for (let n = 30; n < 400; n++) {
      const md = renderMarkdown({ title: MIXED, id: "x" }, n);
      if (loneHalves(md).length > 0) bad.push(n);
    }
    expect(bad).toEqual([]);
    // The cut still happened (the sweep tested something).
    expect(renderMarkdown({ title: MIXED, id: "x" }, 100).length).toBeLessThanOrEqual(100);
  });

  test("table cells truncated to a width", () => {
    const bad: number[] = [];
    for (let w = 1; w < 60; w++) if (loneHalves(truncate(MIXED, w)).length > 0) bad.push(w);
    expect(bad).toEqual([]);
    expect([truncate("a😀b", 3), truncate("a😀b", 4), truncate("a😀bc", 4)]).toEqual(["a…", "a😀b", "a😀…"]);
  });

  test("log messages and attributes on a terminal (invisible marks before an emoji)", () => {
    const item: LogItem = {
      id: "a".repeat(32),
      timestamp: "2026-01-15T11:58:59+00:00",
      timestampPrecise: null,
      severity: "info",
      severityNumber: 9,
      message: "",
      traceId: null,
      spanId: null,
      project: null,
      projectId: null,
    };
    const bad: number[] = [];
    for (const width of [16, 40, 80, 120]) {
      // Combining marks take no column, so the pre-cut (not the column truncation) decides.
      for (let marks = width * 4 - 3; marks <= width * 4 + 1; marks++) {
        const text = `${"\u0301".repeat(marks)}😀x`;
        const lines = [
          ...formatLogTable([{ ...item, message: text }], { width }),
          ...formatLogAttributes([["payment.note", text]], { width }),
        ];
        if (lines.some((l) => loneHalves(l).length > 0)) bad.push(width * 1000 + marks);
      }
    }
    expect(bad).toEqual([]);
  });

  test("--logfile lines longer than the limit", () => {
    const dir = tempDir();
    const path = join(dir, "app.log");
    const lines = [0, 1, 2, 3].map((k) => `${"x".repeat(LOG_LINE_MAX_CHARS - 2 - k)}${"😀".repeat(4)}`);
    writeFileSync(path, `${lines.join("\n")}\n`);
    const out = tailLines(path);
    expect(out).toHaveLength(4);
    for (const l of out) {
      expect(l.length).toBeLessThanOrEqual(LOG_LINE_MAX_CHARS);
      expect(l.endsWith("…")).toBe(true);
      expect(loneHalves(l)).toEqual([]);
    }
  });
});
