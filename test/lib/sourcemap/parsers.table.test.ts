/**
 * Issue 32 §0: table tests of the pure parsers of `sourcemap` (chunk batching, file URLs, zip
 * paths, debug-ID comments and map references, the URL prefix `explain` suggests).
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { ChunkUploadOptions } from "../../../src/lib/api/chunk-upload.ts";
import { fileUrl, zipPathOf } from "../../../src/lib/sourcemap/bundle.ts";
import {
  jsDebugId,
  mapDebugId,
  normaliseDebugId,
  sourceMappingUrl,
} from "../../../src/lib/sourcemap/debug-id.ts";
import { prefixFor, tildeUrl } from "../../../src/lib/sourcemap/explain.ts";
import type { Chunk } from "../../../src/lib/chunk/types.ts";
import { batchChunks, bytesPerBatch, MAX_IN_FLIGHT_BYTES } from "../../../src/lib/chunk/transfer.ts";
import { mapPathFor } from "../../../src/lib/sourcemap/walk.ts";

const ID_A = "aaf4c61d-dcc5-58a2-9abe-de0f3b482cd9";
const ID_B = "0a1b2c3d-4e5f-5a6b-8c7d-8e9f0a1b2c3d";

/** Chunks named c0, c1, … with the given sizes. */
const chunks = (...sizes: number[]): Chunk[] =>
  sizes.map((size, i) => ({ sha1: `c${i}`, offset: i * 1000, size }));
/** The batches as lists of chunk names. */
const names = (batches: Chunk[][]) => batches.map((b) => b.map((c) => c.sha1));

describe("batchChunks", () => {
  const rows: [string, number[], number, number, string[][]][] = [
    ["nothing to send: no request", [], 4, 100, []],
    ["all fit one request", [10, 10, 10], 4, 100, [["c0", "c1", "c2"]]],
    ["count limit splits", [1, 1, 1, 1, 1], 2, 100, [["c0", "c1"], ["c2", "c3"], ["c4"]]],
    ["byte limit splits (exactly full stays together)", [40, 60, 1], 10, 100, [["c0", "c1"], ["c2"]]],
    ["one byte over the limit starts a new request", [40, 61], 10, 100, [["c0"], ["c1"]]],
    ["a chunk bigger than the limit goes alone", [10, 500, 10], 10, 100, [["c0"], ["c1"], ["c2"]]],
    ["one per request", [5, 5, 5], 1, 100, [["c0"], ["c1"], ["c2"]]],
    [
      "both limits: whichever comes first",
      [30, 30, 30, 30, 5, 5, 5],
      3,
      100,
      [["c0", "c1", "c2"], ["c3", "c4", "c5"], ["c6"]],
    ],
  ];
  for (const [name, sizes, per, max, expected] of rows) {
    test(name, () => {
      const input = chunks(...sizes);
      const out = batchChunks(input, per, max);
      expect(names(out)).toEqual(expected);
      // Every chunk exactly once, in order.
      expect(out.flat()).toEqual(input);
    });
  }
});

describe("bytesPerBatch", () => {
  const opts = (o: Partial<ChunkUploadOptions>): ChunkUploadOptions => ({
    url: "/api/0/organizations/acme/chunk-upload/",
    chunkSize: 8 * 1024 * 1024,
    chunksPerRequest: 64,
    maxRequestSize: 32 * 1024 * 1024,
    maxFileSize: 2 ** 31,
    concurrency: 1,
    hashAlgorithm: "sha1",
    compression: [],
    accept: [],
    ...o,
  });
  const MIB = 1024 * 1024;
  const rows: [string, Partial<ChunkUploadOptions>, number][] = [
    ["sentry.io's defaults, one request at a time: maxRequestSize", {}, 32 * MIB],
    ["maxRequestSize is the cap", { maxRequestSize: 16 * MIB }, 16 * MIB],
    ["memory is the cap: 8 parallel requests share 64 MiB", { concurrency: 8 }, 8 * MIB],
    ["never below one chunk", { maxRequestSize: 1024 }, 8 * MIB],
    ["never below one chunk, even when memory is short", { concurrency: 64 }, 8 * MIB],
    [
      "memory cap with small chunks",
      { chunkSize: MIB, concurrency: 4, maxRequestSize: 1 << 30 },
      MAX_IN_FLIGHT_BYTES / 4,
    ],
  ];
  for (const [name, o, expected] of rows) test(name, () => expect(bytesPerBatch(opts(o))).toBe(expected));
});

describe("fileUrl", () => {
  const rows: [string, string, string | undefined, string][] = [
    ["app.js", "~/", undefined, "~/app.js"],
    ["app.js", "~", undefined, "~/app.js"],
    ["static/js/app.js", "~/assets", undefined, "~/assets/static/js/app.js"],
    ["static/js/app.js", "~/assets/", undefined, "~/assets/static/js/app.js"],
    ["dist/app.js", "~/", "dist", "~/app.js"],
    ["dist/app.js", "~/", "./dist/", "~/app.js"],
    ["dist/app.js", "~/", "other/", "~/dist/app.js"],
    ["app.js", "", undefined, "app.js"],
    ["a.js", "https://cdn.example.com/v1", undefined, "https://cdn.example.com/v1/a.js"],
  ];
  for (const [rel, prefix, strip, expected] of rows) {
    test(`${rel} + ${JSON.stringify(prefix)} (strip ${strip ?? "none"}) → ${expected}`, () =>
      expect(fileUrl(rel, prefix, strip)).toBe(expected));
  }
});

describe("zipPathOf", () => {
  const rows: [string, string][] = [
    ["~/app.js", "files/_/_/app.js"],
    ["~/static/js/app.js", "files/_/_/static/js/app.js"],
    ["app.js", "files/_/_/app.js"],
    ["/abs/app.js", "files/_/_/abs/app.js"],
    ["https://cdn.example.com/v1/a.js", "files/https/cdn.example.com/v1/a.js"],
    ["app:///main.js", "files/app/_/main.js"],
    ["http://host", "files/http/host/"],
  ];
  for (const [url, expected] of rows)
    test(`${url} → ${expected}`, () => expect(zipPathOf(url)).toBe(expected));
});

describe("jsDebugId (the last //# debugId comment wins)", () => {
  const rows: [string, string, string | undefined][] = [
    ["none", "x();\n", undefined],
    ["one", `x();\n//# debugId=${ID_A}\n`, ID_A],
    ["two valid: the last", `x();\n//# debugId=${ID_A}\ny();\n//# debugId=${ID_B}\n`, ID_B],
    ["two valid, reversed: the last", `//# debugId=${ID_B}\n//# debugId=${ID_A}`, ID_A],
    [
      "a malformed last one does not hide a valid earlier one",
      `//# debugId=${ID_A}\n//# debugId=nope\n`,
      ID_A,
    ],
    ["upper case is normalised", `//# debugId=${ID_A.toUpperCase()}\n`, ID_A],
    ["trailing spaces and CRLF", `x\r\n//# debugId=${ID_B}  \r\n`, ID_B],
    ["not at the start of a line: ignored", `x(); //# debugId=${ID_A}\n`, undefined],
    ["behind a quote: not a comment line", `"//# debugId=${ID_A}"\n`, undefined],
  ];
  for (const [name, text, expected] of rows) test(name, () => expect(jsDebugId(text)).toBe(expected));
});

describe("normaliseDebugId", () => {
  const rows: [unknown, string | undefined][] = [
    [ID_A, ID_A],
    [ID_A.toUpperCase(), ID_A],
    [`{${ID_A}}`, ID_A],
    [`  ${ID_A}\n`, ID_A],
    [ID_A.replace(/-/g, ""), undefined],
    [`${ID_A}0`, undefined],
    ["", undefined],
    [42, undefined],
    [null, undefined],
  ];
  for (const [raw, expected] of rows)
    test(`${JSON.stringify(raw)} → ${expected}`, () => expect(normaliseDebugId(raw)).toBe(expected));
});

describe("mapDebugId", () => {
  const rows: [Record<string, unknown>, string | undefined][] = [
    [{ debug_id: ID_A }, ID_A],
    [{ debugId: ID_B }, ID_B],
    [{ debug_id: ID_A, debugId: ID_B }, ID_A],
    [{ debug_id: "bad", debugId: ID_B }, ID_B],
    [{ debug_id: ID_A.toUpperCase() }, ID_A],
    [{}, undefined],
  ];
  for (const [map, expected] of rows)
    test(`${JSON.stringify(map)} → ${expected}`, () => expect(mapDebugId(map)).toBe(expected));
});

describe("sourceMappingUrl (the last comment wins)", () => {
  const rows: [string, string | undefined][] = [
    ["x();\n//# sourceMappingURL=app.js.map\n", "app.js.map"],
    ["x();\n//@ sourceMappingURL=old.map\n", "old.map"],
    ["//# sourceMappingURL=a.map\n//# sourceMappingURL=b.map", "b.map"],
    ["x(); //# sourceMappingURL=a.map\n", undefined],
    ["//# sourceMappingURL=data:application/json;base64,e30=\n", "data:application/json;base64,e30="],
    ["x();\n", undefined],
  ];
  for (const [text, expected] of rows)
    test(`${JSON.stringify(text)} → ${expected}`, () => expect(sourceMappingUrl(text)).toBe(expected));
});

describe("mapPathFor", () => {
  const js = "/p/dist/app.js";
  const rows: [string | undefined, string | undefined][] = [
    [undefined, "/p/dist/app.js.map"],
    ["app.js.map", "/p/dist/app.js.map"],
    ["maps/app.js.map?v=3#x", "/p/dist/maps/app.js.map"],
    ["../maps/app.js.map", "/p/maps/app.js.map"],
    ["my%20app.js.map", "/p/dist/my app.js.map"],
    ["bad%zzescape.map", "/p/dist/bad%zzescape.map"],
    ["https://cdn.example.com/x/y/app.min.js.map?v=1", join("/p/dist", "app.min.js.map")],
    ["data:application/json;base64,e30=", undefined],
  ];
  for (const [ref, expected] of rows)
    test(`${ref ?? "(no comment)"} → ${expected}`, () => expect(mapPathFor(js, ref)).toBe(expected));
});

describe("tildeUrl and prefixFor", () => {
  const tilde: [string, string][] = [
    ["https://example.com/static/app.js", "~/static/app.js"],
    ["https://example.com/static/app.js?v=1", "~/static/app.js"],
    ["app:///main.js", "~/main.js"],
    ["/static/app.js", "~/static/app.js"],
    ["static/app.js", "~/static/app.js"],
  ];
  for (const [abs, expected] of tilde)
    test(`tildeUrl ${abs} → ${expected}`, () => expect(tildeUrl(abs)).toBe(expected));

  const prefix: [string, string, string | undefined][] = [
    ["https://example.com/static/js/app.js", "~/app.js", "~/static/js/"],
    ["https://example.com/static/js/app.js", "~/js/app.js", "~/static/"],
    ["https://example.com/static/js/app.js", "https://cdn.example.com/js/app.js", "~/static/"],
    ["https://example.com/static/js/app.js", "~/static/js/app.js", "~/"],
    ["https://example.com/static/js/app.js", "~/other.js", undefined],
    ["https://example.com/static/js/xapp.js", "~/app.js", undefined],
  ];
  for (const [abs, candidate, expected] of prefix)
    test(`prefixFor ${abs} from ${candidate} → ${expected}`, () =>
      expect(prefixFor(abs, candidate)).toBe(expected));
});
