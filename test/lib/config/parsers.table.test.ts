/**
 * Issue 32 §0: table tests of the configuration-file parsers (`.sentryclirc` INI, Java
 * properties, `sentry.properties`): each row a file text and the exact values taken from it.
 */
import { describe, expect, test } from "bun:test";
import { parseProperties, parseSentryProperties } from "../../../src/lib/config/properties.ts";
import { type ConfigValues, parseSentryclirc } from "../../../src/lib/config/sentryclirc.ts";

describe("parseSentryclirc", () => {
  const rows: [string, string, ConfigValues][] = [
    ["empty", "", {}],
    [
      "token and defaults",
      "[auth]\ntoken=abc\n[defaults]\nurl=https://s.example.com/\norg=acme\nproject=web\n",
      {
        token: "abc",
        url: "https://s.example.com/",
        org: "acme",
        project: "web",
      },
    ],
    [
      "keys and sections in any case, spaces around",
      "[ AUTH ]\n  Token  =  abc  \n[Defaults]\nORG: acme\n",
      { token: "abc", org: "acme" },
    ],
    [
      "quoted values keep what is inside",
      "[defaults]\norg=\"acme # not a comment\"\nproject='web'\n",
      {
        org: "acme # not a comment",
        project: "web",
      },
    ],
    [
      "a trailing comment after whitespace is dropped",
      "[defaults]\norg=acme ; the org\nproject=web # main\n",
      {
        org: "acme",
        project: "web",
      },
    ],
    ["a # inside a value stays", "[auth]\ntoken=ab#cd\n", { token: "ab#cd" }],
    ["comment lines and a byte-order mark", "\uFEFF# c\n; c\n[defaults]\norg=acme\n", { org: "acme" }],
    ["CRLF and CR line ends", "[defaults]\r\norg=acme\rproject=web\r\n", { org: "acme", project: "web" }],
    ["the last duplicate wins", "[defaults]\norg=a\norg=b\n", { org: "b" }],
    ["empty values are ignored", '[defaults]\norg=\nproject=""\n', {}],
    ["keys outside their section do not count", "token=abc\n[defaults]\ntoken=x\n[auth]\norg=y\n", {}],
    [
      "unknown sections and keys ignored",
      "[http]\nproxy_url=x\n[defaults]\nregion=us\norg=acme\n",
      { org: "acme" },
    ],
    [
      "a line without = or a leading = is skipped",
      "[defaults]\norg acme\n=web\nproject=web\n",
      { project: "web" },
    ],
    ["the first = or : splits", "[defaults]\nurl=https://h:9000/x=1\n", { url: "https://h:9000/x=1" }],
  ];
  for (const [name, text, expected] of rows)
    test(name, () => expect(parseSentryclirc(text)).toEqual(expected));
});

describe("parseProperties", () => {
  const rows: [string, string, [string, string][]][] = [
    [
      "= : and whitespace separate",
      "a=1\nb:2\nc 3\nd = 4\n",
      [
        ["a", "1"],
        ["b", "2"],
        ["c", "3"],
        ["d", "4"],
      ],
    ],
    ["# and ! comments, blank lines", "# x\n! y\n\n   \na=1\n", [["a", "1"]]],
    [
      "escapes in values",
      "url=https\\://s.example.com/\\u00e9\\t!\n",
      [["url", "https://s.example.com/é\t!"]],
    ],
    ["escaped separator in a key", "a\\=b=c\n", [["a=b", "c"]]],
    ["continuation lines (leading space of the next dropped)", "a=one \\\n    two\n", [["a", "one two"]]],
    [
      "an even number of backslashes is no continuation",
      "a=x\\\\\nb=y\n",
      [
        ["a", "x\\"],
        ["b", "y"],
      ],
    ],
    ["a comment marker inside a continuation is text", "a=1\\\n#2\n", [["a", "1#2"]]],
    ["a key alone has an empty value", "flag\n", [["flag", ""]]],
    ["the later duplicate wins", "a=1\na=2\n", [["a", "2"]]],
    [
      "byte-order mark and CRLF",
      "\uFEFFa=1\r\nb=2\r\n",
      [
        ["a", "1"],
        ["b", "2"],
      ],
    ],
    ["a continuation at the end of the file", "a=1\\", [["a", "1"]]],
  ];
  for (const [name, text, expected] of rows)
    test(name, () => expect([...parseProperties(text)]).toEqual(expected));
});

describe("parseSentryProperties", () => {
  const rows: [string, string, ConfigValues][] = [
    [
      "the wizard's file",
      "defaults.url=https\\://sentry.example.com/\ndefaults.org=acme\ndefaults.project=web\nauth.token=abc\n",
      {
        url: "https://sentry.example.com/",
        org: "acme",
        project: "web",
        token: "abc",
      },
    ],
    ["keys in any case, values trimmed", "Defaults.ORG =  acme  \n", { org: "acme" }],
    ["empty values ignored", "defaults.org=\ndefaults.project=   \n", {}],
    ["other keys ignored", "cli.executable=x\ndefaults.region=us\n", {}],
    ["not the INI section form", "[defaults]\norg=acme\n", {}],
  ];
  for (const [name, text, expected] of rows)
    test(name, () => expect(parseSentryProperties(text)).toEqual(expected));
});
