import { describe, expect, test } from "bun:test";
import { formatTable } from "../../src/lib/format/table.ts";

const COLUMNS = [{ header: "id" }, { header: "title", flex: true }, { header: "n", align: "right" as const }];

describe("formatTable", () => {
  test("terminal: upper-case header, two-space gaps, the flex column truncated to the width", () => {
    const lines = formatTable(
      COLUMNS,
      [
        ["A-1", "a title that is far too long for the terminal", "7"],
        ["A-22", "short", "1234"],
      ],
      30,
    );
    expect(lines).toEqual([
      "ID    TITLE                  N",
      "A-1   a title that is f…     7",
      "A-22  short               1234",
    ]);
    for (const line of lines) expect(Bun.stringWidth(line)).toBeLessThanOrEqual(30);
  });

  test("piped: one row per line, one tab between cells, no header, nothing padded", () => {
    expect(formatTable(COLUMNS, [["A-1", "a title", "7"]])).toEqual(["A-1\ta title\t7"]);
  });

  test("piped: tabs and line breaks inside server text cannot split a row or add a field", () => {
    const [row, ...rest] = formatTable(COLUMNS, [["A-1", "evil\ttitle\r\nsecond line", "7"]]);
    expect(rest).toEqual([]);
    expect(row).toBe("A-1\tevil title second line\t7");
    expect(row?.split("\t")).toHaveLength(3);
  });

  test("an empty list is no lines at all when piped, a header alone on a terminal", () => {
    expect(formatTable(COLUMNS, [])).toEqual([]);
    expect(formatTable(COLUMNS, [], 80)).toEqual(["ID  TITLE  N"]);
  });
});
