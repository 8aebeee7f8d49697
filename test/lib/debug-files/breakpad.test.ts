import { describe, expect, test } from "bun:test";
import { breakpadDebugId, breakpadReader } from "../../../src/lib/debug-files/breakpad.ts";
import { normalizeDebugId } from "../../../src/lib/debug-files/select.ts";
import { DifParseError, type FileWindow } from "../../../src/lib/debug-files/types.ts";
import { withProguardUuids } from "../../../src/lib/proguard/properties.ts";
import { jvmUrl } from "../../../src/lib/debug-files/jvm-bundle.ts";
import { breakpadSym } from "../../fixtures/difs/sym.ts";

function windowOf(bytes: Uint8Array): FileWindow {
  return { size: bytes.length, read: async (o, n) => bytes.slice(o, o + n) };
}

describe("Breakpad debug IDs", () => {
  test("32 hex digits are the UUID as written, the rest the age (hex, 0 omitted)", () => {
    expect(breakpadDebugId("DE6A1D56C3E74A7EBA2EB1CEE1C5DD1A1")).toBe(
      "de6a1d56-c3e7-4a7e-ba2e-b1cee1c5dd1a-1",
    );
    expect(breakpadDebugId("DE6A1D56C3E74A7EBA2EB1CEE1C5DD1A0")).toBe("de6a1d56-c3e7-4a7e-ba2e-b1cee1c5dd1a");
    expect(breakpadDebugId("DE6A1D56C3E74A7EBA2EB1CEE1C5DD1A1a")).toBe(
      "de6a1d56-c3e7-4a7e-ba2e-b1cee1c5dd1a-1a",
    );
    expect(breakpadDebugId("000000000000000000000000000000000")).toBeNull();
    expect(breakpadDebugId("nothex")).toBeNull();
  });

  test("the reader: arch, code ID, features from the record kinds at both ends of a large file", async () => {
    const text = breakpadSym({
      id: "DE6A1D56C3E74A7EBA2EB1CEE1C5DD1A1",
      arch: "amd64",
      codeId: "5f2e0d8c4a",
      padBytes: 400_000,
    });
    const [o] = await breakpadReader.read(windowOf(new TextEncoder().encode(text)), "app.sym");
    expect(o).toMatchObject({
      format: "breakpad",
      kind: "dbg",
      arch: "x86_64",
      codeId: "5f2e0d8c4a",
      features: ["symtab", "debug", "unwind"],
    });
  });

  test("fuzz: truncations and bit flips give objects or a DifParseError, never another exception", async () => {
    const bytes = new TextEncoder().encode(
      breakpadSym({ id: "DE6A1D56C3E74A7EBA2EB1CEE1C5DD1A1", codeId: "ab" }),
    );
    let seed = 42;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    for (let i = 0; i < 400; i++) {
      const b = i % 2 === 0 ? bytes.slice(0, rand() % bytes.length) : bytes.slice();
      if (i % 2 === 1)
        for (let k = 0; k < 4; k++) {
          const at = rand() % b.length;
          b[at] = (b[at] as number) ^ (1 << (rand() % 8));
        }
      try {
        const objects = await breakpadReader.read(windowOf(b), "f.sym");
        expect(objects).toHaveLength(1);
      } catch (err) {
        if (!(err instanceof DifParseError)) throw new Error(`seed ${seed}, case ${i}: ${err}`);
      }
    }
  });
});

describe("small parsers", () => {
  test("normalizeDebugId accepts the dashed, bare and Breakpad forms", () => {
    expect(normalizeDebugId("DE6A1D56-C3E7-4A7E-BA2E-B1CEE1C5DD1A-1")).toBe(
      "de6a1d56-c3e7-4a7e-ba2e-b1cee1c5dd1a-1",
    );
    expect(normalizeDebugId("de6a1d56c3e74a7eba2eb1cee1c5dd1a")).toBe("de6a1d56-c3e7-4a7e-ba2e-b1cee1c5dd1a");
    expect(normalizeDebugId("de6a1d56c3e74a7eba2eb1cee1c5dd1a0")).toBe(
      "de6a1d56-c3e7-4a7e-ba2e-b1cee1c5dd1a",
    );
    expect(normalizeDebugId("symbols")).toBeUndefined();
  });

  test("withProguardUuids replaces the key where it is, keeps comments and other keys, appends when absent", () => {
    expect(withProguardUuids("# c\na=1\nio.sentry.ProguardUuids = old\nb=2\n", ["u1", "u2"])).toBe(
      "# c\na=1\nio.sentry.ProguardUuids=u1|u2\nb=2\n",
    );
    expect(withProguardUuids("a=1", ["u"])).toBe("a=1\nio.sentry.ProguardUuids=u\n");
    expect(withProguardUuids("", ["u"])).toBe("io.sentry.ProguardUuids=u\n");
  });

  test("jvmUrl strips [module/]src/<set>/<language>/ and ends in .jvm", () => {
    expect(jvmUrl("app/src/main/java/com/example/app/MainActivity.java")).toBe(
      "~/com/example/app/MainActivity.jvm",
    );
    expect(jvmUrl("src/main/kotlin/a/B.kt")).toBe("~/a/B.jvm");
    expect(jvmUrl("scripts/Tool.groovy")).toBe("~/scripts/Tool.jvm");
  });
});
