/**
 * The source files the checked-in fixtures' DWARF names (built in /tmp/difb, see
 * test/fixtures/difs/README.md): plain, SHF_COMPRESSED (`-gz=zlib`), `.zdebug_*` and Mach-O dSYM
 * line tables; objects without DWARF have none; zip paths as symbolic sanitises them.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { detectDif, openFileWindow } from "../../../src/lib/debug-files/detect.ts";
import { bundlePath, objectSources } from "../../../src/lib/debug-files/source-bundle.ts";

const DIR = join(import.meta.dir, "../../fixtures/difs");

async function sourcesOf(name: string): Promise<(string[] | null)[]> {
  const window = await openFileWindow(join(DIR, name));
  try {
    const out: (string[] | null)[] = [];
    for (const o of (await detectDif(window, name)) ?? [])
      out.push((await objectSources(window, o))?.sources ?? null);
    return out;
  } finally {
    await window.close();
  }
}

describe("DWARF source files of the fixtures", () => {
  test.each([
    ["elf-debug", ["/tmp/difb/start.c"]],
    ["elf-debug.debug", ["/tmp/difb/start.c"]],
    ["libz.so", ["/tmp/difb/lib.c"]],
    ["libzgnu.so", ["/tmp/difb/lib.c"]],
    ["macho-x86_64.dsym", ["/tmp/difb/mstart.c"]],
  ])("%s names %p", async (name, expected) => {
    expect(await sourcesOf(name)).toEqual([expected]);
  });

  test("objects without DWARF line tables have no sources (each slice of a fat Mach-O too)", async () => {
    expect(await sourcesOf("elf-stripped")).toEqual([null]);
    expect(await sourcesOf("macho-fat")).toEqual([null, null]);
  });

  test("zip paths: leading / dropped, runs of separators and drive colons folded", () => {
    expect(bundlePath("/build/src/hello.c")).toBe("files/build/src/hello.c");
    expect(bundlePath("C:\\src\\\\app\\main.c")).toBe("files/C/src/app/main.c");
  });
});
