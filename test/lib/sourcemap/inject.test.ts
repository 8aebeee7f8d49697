import { describe, expect, test } from "bun:test";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { debugIdFromBytes, jsDebugId } from "../../../src/lib/sourcemap/debug-id.ts";
import { injectPaths } from "../../../src/lib/sourcemap/inject.ts";
import { BadSourceMap, injectPair } from "../../../src/lib/sourcemap/inject-text.ts";
import { tempDir } from "../../helpers/cli.ts";

const FIXTURES = join(import.meta.dir, "../../fixtures/sourcemap");
const GOLDEN = join(FIXTURES, "golden");
const update = process.env.UPDATE_GOLDEN === "1";

function golden(name: string, actual: string): void {
  const path = join(GOLDEN, name);
  if (update) writeFileSync(path, actual);
  expect(actual).toBe(readFileSync(path, "utf8"));
}

describe("debug ids", () => {
  test("a version-5 UUID from the SHA-1 of the bytes; same bytes, same id", () => {
    // sha1("hello") = aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d → version nibble 5, variant 10xx.
    expect(debugIdFromBytes("hello")).toBe("aaf4c61d-dcc5-58a2-9abe-de0f3b482cd9");
    expect(debugIdFromBytes(new TextEncoder().encode("hello"))).toBe(debugIdFromBytes("hello"));
    expect(debugIdFromBytes("hello!")).not.toBe(debugIdFromBytes("hello"));
  });

  test("the last //# debugId comment wins; malformed ones are ignored", () => {
    expect(jsDebugId("x\n//# debugId=nope\n//# debugId=AAF4C61D-DCC5-58A2-9ABE-DE0F3B482CD9\n")).toBe(
      "aaf4c61d-dcc5-58a2-9abe-de0f3b482cd9",
    );
    expect(jsDebugId("x\n")).toBeUndefined();
  });
});

describe("injection (golden files)", () => {
  for (const [js, map] of [
    ["app.js", "app.js.map"],
    ["cli.mjs", "cli.mjs.map"],
  ] as const) {
    test(`${js}: snippet, comment and map fields; a second pass changes nothing`, () => {
      const r = injectPair(
        readFileSync(join(FIXTURES, js), "utf8"),
        readFileSync(join(FIXTURES, map), "utf8"),
      );
      expect(r.debugId).toBe(debugIdFromBytes(readFileSync(join(FIXTURES, map))));
      golden(js, r.js as string);
      golden(map, r.map as string);
      const again = injectPair(r.js as string, r.map as string);
      expect(again).toEqual({ debugId: r.debugId });
    });
  }

  test("an id already in the map is kept; a corrupt map is refused", () => {
    const r = injectPair(
      "a()\n",
      '{"version":3,"mappings":"AA","debugId":"aaf4c61d-dcc5-58a2-9abe-de0f3b482cd9"}',
    );
    expect(r.debugId).toBe("aaf4c61d-dcc5-58a2-9abe-de0f3b482cd9");
    expect(() => injectPair("a()\n", "{not json")).toThrow(BadSourceMap);
    expect(() => injectPair("a()\n", '{"version":3}')).toThrow(BadSourceMap);
  });
});

describe("injectPaths", () => {
  test("directories: injects files with maps, skips others, idempotent, --dry-run writes nothing", () => {
    const dir = tempDir();
    for (const f of ["app.js", "app.js.map", "cli.mjs", "cli.mjs.map"])
      cpSync(join(FIXTURES, f), join(dir, f));
    writeFileSync(join(dir, "nomap.js"), "x()\n");
    writeFileSync(join(dir, "bad.js"), "x()\n//# sourceMappingURL=bad.js.map\n");
    writeFileSync(join(dir, "bad.js.map"), "{oops");
    // As many ../ as the temp dir is deep: /etc/passwd whatever TMPDIR is.
    const up = "../".repeat(dir.split("/").length - 1);
    writeFileSync(join(dir, "out.js"), `x()\n//# sourceMappingURL=${up}etc/passwd\n`);
    const dry = injectPaths(["."], { cwd: dir, dryRun: true });
    expect(dry.injected.map((i) => i.file)).toEqual(["app.js", "cli.mjs"]);
    expect(readFileSync(join(dir, "app.js"), "utf8")).toBe(readFileSync(join(FIXTURES, "app.js"), "utf8"));
    const first = injectPaths(["."], { cwd: dir, dryRun: false });
    expect(first.injected.map((i) => [i.file, i.changed])).toEqual([
      ["app.js", ["js", "map"]],
      ["cli.mjs", ["js", "map"]],
    ]);
    expect(first.skipped.map((s) => [s.path, s.reason.split(":")[0]])).toEqual([
      ["bad.js.map", "corrupt source map"],
      ["nomap.js", "no source map"],
      ["out.js", `its map /etc/passwd is outside ${dir}`],
    ]);
    expect(readFileSync(join(dir, "app.js"), "utf8")).toBe(readFileSync(join(GOLDEN, "app.js"), "utf8"));
    const second = injectPaths(["."], { cwd: dir, dryRun: false });
    expect(second.injected).toEqual([]);
    expect(second.unchanged.map((u) => u.file)).toEqual(["app.js", "cli.mjs"]);
  });
});
