/**
 * Issue 32 §0: table tests of `parseSourceMap` (what counts as a source map, with the exact reason
 * when not) and `inputFingerprint` (what makes `sourcemap upload` rebuild instead of reusing).
 */
import { describe, expect, test } from "bun:test";
import type { BundleOptions } from "../../../src/lib/sourcemap/bundle.ts";
import { inputFingerprint } from "../../../src/lib/sourcemap/cache.ts";
import { BadSourceMap, MAX_MAP_DEPTH, parseSourceMap } from "../../../src/lib/sourcemap/inject-text.ts";
import type { FoundFile } from "../../../src/lib/sourcemap/walk.ts";

describe("parseSourceMap", () => {
  const ok: [string, string, Record<string, unknown>][] = [
    ["a plain map", '{"version":3,"mappings":"AAAA"}', { version: 3, mappings: "AAAA" }],
    ["an index map", '{"version":3,"sections":[]}', { version: 3, sections: [] }],
    ["the XSSI prefix is skipped", ')]}\'\n{"mappings":""}', { mappings: "" }],
    ["the XSSI prefix with more on its line", ')]}\' junk\n{"mappings":";"}', { mappings: ";" }],
    [
      "nested as deep as allowed",
      `{"mappings":"","x":${"[".repeat(MAX_MAP_DEPTH - 1)}${"]".repeat(MAX_MAP_DEPTH - 1)}}`,
      {},
    ],
    ["brackets inside strings do not count", `{"mappings":"","s":"${"[".repeat(MAX_MAP_DEPTH + 5)}"}`, {}],
  ];
  for (const [name, text, expected] of ok)
    test(name, () => expect(parseSourceMap(text)).toMatchObject(expected));

  const bad: [string, string, string][] = [
    ["an array", "[1]", "not a JSON object"],
    ["null", "null", "not a JSON object"],
    ["a string", '"x"', "not a JSON object"],
    ["no mappings nor sections", '{"version":3}', "neither `mappings` nor `sections`"],
    ["mappings not a string", '{"mappings":1}', "neither `mappings` nor `sections`"],
    ["sections not a list", '{"sections":{}}', "neither `mappings` nor `sections`"],
    [
      "too deep",
      `{"mappings":"","x":${"[".repeat(MAX_MAP_DEPTH)}${"]".repeat(MAX_MAP_DEPTH)}}`,
      `nested more than ${MAX_MAP_DEPTH} levels deep (not a source map)`,
    ],
    [
      "too deep and never closed",
      "[".repeat(MAX_MAP_DEPTH + 1),
      `nested more than ${MAX_MAP_DEPTH} levels deep (not a source map)`,
    ],
  ];
  for (const [name, text, message] of bad) {
    test(`${name}: ${message}`, () => {
      expect(() => parseSourceMap(text)).toThrow(BadSourceMap);
      expect(() => parseSourceMap(text)).toThrow(message);
    });
  }
  test("not JSON: the parser's reason in parentheses", () => {
    expect(() => parseSourceMap("{mappings:")).toThrow(/^not valid JSON \(.+\)$/);
  });
});

describe("inputFingerprint", () => {
  const file = (over: Partial<FoundFile> = {}): FoundFile => ({
    abs: "/b/app.js",
    rel: "app.js",
    root: "/b",
    realRoot: "/b",
    size: 10,
    mtimeMs: 1000,
    ...over,
  });
  const opts = (over: Partial<BundleOptions> = {}): BundleOptions => ({
    org: "acme",
    projects: ["web", "api"],
    urlPrefix: "~/",
    rewrite: true,
    maxFileSize: 0,
    ...over,
  });
  const base = inputFingerprint([file()], opts());

  test("a SHA-1 in hex, the same for the same inputs", () => {
    expect(base).toMatch(/^[0-9a-f]{40}$/);
    expect(inputFingerprint([file()], opts())).toBe(base);
  });
  test("the order of the projects does not matter", () =>
    expect(inputFingerprint([file()], opts({ projects: ["api", "web"] }))).toBe(base));

  const changes: [string, FoundFile[], BundleOptions][] = [
    ["a file's size", [file({ size: 11 })], opts()],
    ["a file's mtime", [file({ mtimeMs: 1001 })], opts()],
    ["a file's path", [file({ rel: "static/app.js" })], opts()],
    ["a file's absolute path", [file({ abs: "/c/app.js" })], opts()],
    ["one more file", [file(), file({ abs: "/b/app.js.map", rel: "app.js.map" })], opts()],
    ["no file", [], opts()],
    ["the org", [file()], opts({ org: "globex" })],
    ["the projects", [file()], opts({ projects: ["web"] })],
    ["the release", [file()], opts({ release: "web@1.0" })],
    ["the dist", [file()], opts({ release: "web@1.0", dist: "7" })],
    ["the URL prefix", [file()], opts({ urlPrefix: "~/static/" })],
    ["the strip prefix", [file()], opts({ stripPrefix: "dist/" })],
    ["rewriting", [file()], opts({ rewrite: false })],
  ];
  for (const [name, files, o] of changes)
    test(`changes with ${name}`, () => expect(inputFingerprint(files, o)).not.toBe(base));
});
