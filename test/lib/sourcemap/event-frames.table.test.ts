/**
 * Issue 32 §0: table tests of what `sourcemap explain` reads from an event: the still-minified
 * frames, the debug images, the release/dist tags, the "not covered by the map" errors.
 */
import { describe, expect, test } from "bun:test";
import type { ApiEvent } from "../../../src/lib/api/events.ts";
import {
  debugImages,
  eventTag,
  type MinifiedFrame,
  minifiedFrames,
  notCoveredByMap,
} from "../../../src/lib/sourcemap/event-frames.ts";

const ID = "aaf4c61d-dcc5-58a2-9abe-de0f3b482cd9";
const event = (e: Record<string, unknown>) => e as unknown as ApiEvent;
const exception = (...stacks: unknown[][]) =>
  event({
    entries: [{ type: "exception", data: { values: stacks.map((frames) => ({ stacktrace: { frames } })) } }],
  });

describe("minifiedFrames", () => {
  const rows: [string, ApiEvent, Omit<MinifiedFrame, "function" | "lineNo" | "colNo">[]][] = [
    ["no entries", event({}), []],
    ["no exception entry", event({ entries: [{ type: "message", data: {} }] }), []],
    [
      "JS frames, crashing (last) frame first",
      exception([
        { absPath: "https://x/a.js" },
        { absPath: "https://x/b.mjs" },
        { absPath: "https://x/c.cjs?v=1" },
      ]),
      [
        { exception: 0, index: 2, absPath: "https://x/c.cjs?v=1" },
        { exception: 0, index: 1, absPath: "https://x/b.mjs" },
        { exception: 0, index: 0, absPath: "https://x/a.js" },
      ],
    ],
    [
      "mapped frames, non-JS files and node: internals are left out",
      exception([
        { absPath: "https://x/a.js", data: { symbolicated: true } },
        { absPath: "https://x/b.js", data: { sourcemap: "https://x/b.js.map" } },
        { absPath: "https://x/app.ts" },
        { absPath: "node:internal/x.js" },
        { absPath: "https://x/jsx" },
        { filename: "/srv/d.js" },
      ]),
      [{ exception: 0, index: 5, absPath: "/srv/d.js" }],
    ],
    [
      "every exception, in order",
      exception([{ absPath: "a.js" }], [{ absPath: "b.js" }, "junk", null]),
      [
        { exception: 0, index: 0, absPath: "a.js" },
        { exception: 1, index: 0, absPath: "b.js" },
      ],
    ],
  ];
  for (const [name, e, expected] of rows) {
    test(name, () =>
      expect(
        minifiedFrames(e).map(({ exception, index, absPath }) => ({ exception, index, absPath })),
      ).toEqual(expected),
    );
  }

  test("function, line and column are carried (null when absent)", () => {
    expect(
      minifiedFrames(
        exception([{ absPath: "a.js", function: "f", lineNo: 1, colNo: 2 }, { absPath: "b.js" }]),
      ),
    ).toEqual([
      { exception: 0, index: 1, absPath: "b.js", function: null, lineNo: null, colNo: null },
      { exception: 0, index: 0, absPath: "a.js", function: "f", lineNo: 1, colNo: 2 },
    ]);
  });
});

describe("debugImages", () => {
  const meta = (images: unknown) => event({ entries: [{ type: "debugmeta", data: { images } }] });
  const rows: [string, ApiEvent, [string, string][]][] = [
    ["none", event({}), []],
    [
      "sourcemap images by file, ids normalised",
      meta([{ type: "sourcemap", code_file: "https://x/a.js", debug_id: ID.toUpperCase() }]),
      [["https://x/a.js", ID]],
    ],
    [
      "other types, bad ids and missing files are skipped",
      meta([
        { type: "elf", code_file: "/lib/x.so", debug_id: ID },
        { type: "sourcemap", code_file: "https://x/b.js", debug_id: "nope" },
        { type: "sourcemap", debug_id: ID },
        "junk",
      ]),
      [],
    ],
    ["images not a list", meta({ a: 1 }), []],
  ];
  for (const [name, e, expected] of rows) test(name, () => expect([...debugImages(e)]).toEqual(expected));
});

describe("eventTag", () => {
  const rows: [string, Record<string, unknown>, string, string | undefined][] = [
    ["a top-level string", { dist: "7" }, "dist", "7"],
    ["a release object's version", { release: { version: "web@1.2.0" } }, "release", "web@1.2.0"],
    ["from the tags", { tags: [{ key: "release", value: "web@1.3.0" }] }, "release", "web@1.3.0"],
    [
      "an empty top-level string falls back to the tags",
      { dist: "", tags: [{ key: "dist", value: "8" }] },
      "dist",
      "8",
    ],
    ["absent", { tags: [] }, "release", undefined],
  ];
  for (const [name, e, key, expected] of rows)
    test(name, () => expect(eventTag(event(e), key)).toBe(expected));
});

describe("notCoveredByMap", () => {
  const frame: MinifiedFrame = {
    exception: 0,
    index: 0,
    absPath: "https://x/a.js",
    function: null,
    lineNo: 1,
    colNo: 9,
  };
  const rows: [string, unknown, boolean][] = [
    ["no errors", undefined, false],
    [
      "a location error naming the file",
      [{ type: "js_invalid_sourcemap_location", data: { url: "https://x/a.js" } }],
      true,
    ],
    [
      "a source-mapping error naming the file",
      [{ type: "js_no_source_mapping", data: { url: "https://x/a.js" } }],
      true,
    ],
    [
      "a location error about another file",
      [{ type: "js_invalid_sourcemap_location", data: { url: "https://x/b.js" } }],
      false,
    ],
    ["another error about the file", [{ type: "js_no_source", data: { url: "https://x/a.js" } }], false],
  ];
  for (const [name, errors, expected] of rows)
    test(name, () =>
      expect(notCoveredByMap(event(errors === undefined ? {} : { errors }), frame)).toBe(expected),
    );
});
