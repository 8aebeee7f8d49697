/**
 * The object readers against real files whose debug IDs, code IDs, architectures and features were
 * recorded once from sentry-cli 3.8's `debug-files check --json` (test/fixtures/difs/README.md);
 * sentry-cli itself is not needed here.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { detectDif, memoryWindow, openFileWindow } from "../../../src/lib/debug-files/detect.ts";
import { type DifObject, DifParseError, type FileWindow } from "../../../src/lib/debug-files/types.ts";
import { tempDir } from "../../helpers/cli.ts";

const DIR = join(import.meta.dir, "../../fixtures/difs");

interface Recorded {
  type: string;
  variants: Array<{ debug_id: string; code_id: string | null; arch: string }>;
  features: string;
  is_usable: boolean;
}
const RECORDED: Record<string, Recorded> = JSON.parse(
  readFileSync(join(DIR, "sentry-cli-check.json"), "utf8"),
);

/** sentry-cli's `type` names for tracker's formats. */
const TYPE_OF: Record<string, string> = { macho: "dsym" };

async function objectsOf(name: string): Promise<DifObject[] | null> {
  const file = await openFileWindow(join(DIR, name));
  try {
    return await detectDif(file, name);
  } finally {
    await file.close();
  }
}

describe("every fixture gives sentry-cli's answer", () => {
  test("every object fixture of this reader set has a recorded answer", () => {
    const objects = readdirSync(DIR).filter((f) => !/\.(md|json|py|sh|sym|txt|ts)$/.test(f));
    expect(objects.filter((f) => !(f in RECORDED))).toEqual([]);
    expect(Object.keys(RECORDED).length).toBeGreaterThanOrEqual(20);
  });

  for (const [name, want] of Object.entries(RECORDED)) {
    test(name, async () => {
      const objects = await objectsOf(name);
      expect(objects).not.toBeNull();
      const got = objects!;
      expect(TYPE_OF[got[0]!.format] ?? got[0]!.format).toBe(want.type);
      expect(got.map((o) => ({ debug_id: o.debugId, code_id: o.codeId, arch: o.arch }))).toEqual(
        want.variants,
      );
      const features = [...new Set(got.flatMap((o) => o.features))];
      expect(features.length > 0 ? features.join(", ") : "none").toBe(want.features);
    });
  }
});

describe("kinds, slices and debug links", () => {
  test("a separate debug file is dbg, the stripped binary names it", async () => {
    expect((await objectsOf("elf-debug.debug"))![0]!.kind).toBe("dbg");
    const stripped = (await objectsOf("elf-stripped"))![0]!;
    expect(stripped.debugFile).toBe("elf-debug.debug");
    expect(stripped.features).not.toContain("debug");
  });

  test("ET_EXEC with an interpreter is exe, a relocatable object rel, a dSYM dbg", async () => {
    expect((await objectsOf("elf32"))![0]!.kind).toBe("exe");
    expect((await objectsOf("elf-rel.o"))![0]!.kind).toBe("rel");
    expect((await objectsOf("macho-x86_64.dsym"))![0]!.kind).toBe("dbg");
    expect((await objectsOf("pe-dll.dll"))![0]!.kind).toBe("lib");
  });

  test("a universal binary has one object per slice, each a thin Mach-O at its offset", async () => {
    const fat = (await objectsOf("macho-fat"))!;
    const bytes = readFileSync(join(DIR, "macho-fat"));
    for (const slice of fat) {
      const thin = await detectDif(
        memoryWindow(bytes.subarray(slice.offset, slice.offset + slice.size)),
        "slice",
      );
      expect(thin![0]!.debugId).toBe(slice.debugId);
      expect(thin![0]!.offset).toBe(0);
    }
    expect(fat.map((o) => o.arch)).toEqual(["x86_64", "arm64"]);
  });

  test("a PE names its PDB, and the PDB carries the same debug id", async () => {
    const pe = (await objectsOf("pe32.exe"))![0]!;
    expect(pe.debugFile).toMatch(/pe32\.pdb$/);
    expect((await objectsOf("pe32.pdb"))![0]!.debugId).toBe(pe.debugId);
  });

  test("a file that is no debug information is null", async () => {
    expect(await objectsOf("make-portable-pdb.py")).toBeNull();
    expect(await detectDif(memoryWindow(new Uint8Array(0)), "empty")).toBeNull();
  });
});

describe("only headers are read", () => {
  /** Counts the bytes a reader asks for. */
  function counting(file: FileWindow): FileWindow & { bytes: number } {
    const w = {
      size: file.size,
      bytes: 0,
      read: async (offset: number, length: number) => {
        const data = await file.read(offset, length);
        w.bytes += data.length;
        return data;
      },
    };
    return w;
  }

  test("a 200 MB ELF (a huge section) costs a few kilobytes of reads", async () => {
    const dir = tempDir("tracker-difs-");
    const path = join(dir, "big.debug");
    const elf = readFileSync(join(DIR, "elf-debug"));
    writeFileSync(path, elf);
    // Grow the file sparsely past a section table that stays where it is: the readers must seek.
    const { truncateSync } = await import("node:fs");
    truncateSync(path, 200 * 1024 * 1024);
    const file = await openFileWindow(path);
    try {
      const w = counting(file);
      const objects = await detectDif(w, "big.debug");
      expect(objects![0]!.debugId).toBe(RECORDED["elf-debug"]!.variants[0]!.debug_id);
      expect(w.bytes).toBeLessThan(64 * 1024);
    } finally {
      await file.close();
    }
  });

  test("a truncated ELF is a DifParseError, not a RangeError", async () => {
    const elf = readFileSync(join(DIR, "elf-debug"));
    const cut = memoryWindow(elf.subarray(0, 40));
    await expect(detectDif(cut, "cut")).rejects.toBeInstanceOf(DifParseError);
  });
});
