/** Issue 24: the `.sentryclirc` and `sentry.properties` readers, as sentry-cli reads those files. */
import { describe, expect, test } from "bun:test";
import { parseSentryProperties } from "../../src/lib/config/properties.ts";
import { parseSentryclirc } from "../../src/lib/config/sentryclirc.ts";

describe(".sentryclirc", () => {
  test("sections and keys case-insensitive, quotes stripped, comments and BOM skipped", () => {
    const text =
      "\uFEFF; top\n[AUTH]\nToken = 'tok en'\n# c\n[defaults]\nurl=\"https://s.example.com\"\norg = acme # inline\nproject=\n[other]\norg=nope\n";
    expect(parseSentryclirc(text)).toEqual({ token: "tok en", url: "https://s.example.com", org: "acme" });
  });

  test("CRLF line ends, a key outside a section is ignored, the last duplicate wins", () => {
    expect(parseSentryclirc("org=x\r\n[defaults]\r\norg=a\r\norg=b\r\n")).toEqual({ org: "b" });
  });
});

describe("sentry.properties", () => {
  test("Java escapes, separators, continuations and comments", () => {
    const text =
      "# wizard\n! also a comment\ndefaults.url=https\\://sentry.example.com\ndefaults.org : acme\ndefaults.project   mo\\\n    bile\nauth.token=t\\u0041k\n";
    expect(parseSentryProperties(text)).toEqual({
      url: "https://sentry.example.com",
      org: "acme",
      project: "mobile",
      token: "tAk",
    });
  });
});
