import { describe, expect, test } from "bun:test";
import {
  envFileRank,
  isDsnVariable,
  MAX_MULTILINE_CHARS,
  parseEnvText,
} from "../../../src/lib/dsn/env-file.ts";

describe("parseEnvText", () => {
  test("comments, export, quotes, blanks, inline comments", () => {
    const text = [
      "# a comment",
      "",
      "export SENTRY_DSN=https://k@h.io/1",
      "A='single # not a comment'",
      'B="double \\"quoted\\""',
      "C=`backtick`",
      "D=",
      "E=value # trailing comment",
      "F = spaced ",
      "not a line",
      "G=url#fragment",
    ].join("\n");
    const env = parseEnvText(text);
    expect(Object.fromEntries(env)).toEqual({
      SENTRY_DSN: "https://k@h.io/1",
      A: "single # not a comment",
      B: 'double "quoted"',
      C: "backtick",
      D: "",
      E: "value",
      F: "spaced",
      G: "url#fragment",
    });
  });

  test("CRLF, BOM and multi-line double quotes", () => {
    const env = parseEnvText('\uFEFFX=1\r\nY="a\nb"\r\nZ=2');
    expect(Object.fromEntries(env)).toEqual({ X: "1", Y: "a\nb", Z: "2" });
  });
});

describe("isDsnVariable", () => {
  test.each([
    ["TRACKER_DSN", true],
    ["SENTRY_DSN", true],
    ["NEXT_PUBLIC_SENTRY_DSN", true],
    ["VITE_SENTRY_DSN", true],
    ["DSN", true],
    ["DATABASE_URL", false],
    ["SENTRY_DSN_OLD", false],
  ])("%s → %p", (name, want) => {
    expect(isDsnVariable(name)).toBe(want);
  });
});

describe("envFileRank", () => {
  test("mode-local > local > mode > plain > other modes; templates are ignored", () => {
    const names = [
      ".env",
      ".env.local",
      ".env.development",
      ".env.development.local",
      ".env.production",
      ".env.production.local",
    ];
    const ranked = names
      .map((n) => [n, envFileRank(n, "development")] as const)
      .sort((a, b) => (a[1] as number) - (b[1] as number))
      .map(([n]) => n);
    expect(ranked).toEqual([
      ".env.development.local",
      ".env.local",
      ".env.development",
      ".env",
      ".env.production.local",
      ".env.production",
    ]);
    for (const n of [".env.example", ".env.sample", ".env.template", ".envrc", ".env.bak~"]) {
      expect(envFileRank(n, "development")).toBeUndefined();
    }
  });
});

describe("an unterminated multi-line value", () => {
  test("a 250 KB unterminated quote is read once and capped; the lines after it still count", () => {
    const text = `A="${"abc def\n".repeat(31_000)}`;
    const out = parseEnvText(text);
    expect((out.get("A") as string).length).toBeLessThanOrEqual(MAX_MULTILINE_CHARS + 10);
    const normal = parseEnvText('B="one\ntwo"\nSENTRY_DSN=x');
    expect(normal.get("B")).toBe("one\ntwo");
    expect(normal.get("SENTRY_DSN")).toBe("x");
  });
});
