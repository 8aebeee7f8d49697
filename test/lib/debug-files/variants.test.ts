/**
 * Format variants made by patching the fixtures in memory: the answers sentry-cli 3.8 gave for the
 * same patched bytes are written next to each case (it cannot read a fat64 header; tracker can).
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { detectDif, memoryWindow } from "../../../src/lib/debug-files/detect.ts";
import { DifParseError } from "../../../src/lib/debug-files/types.ts";

const DIR = join(import.meta.dir, "../../fixtures/difs");
const fixture = (name: string) => Buffer.from(readFileSync(join(DIR, name)));
const read = async (bytes: Uint8Array) => (await detectDif(memoryWindow(bytes), "patched"))!;

test("ELF: without PT_NOTE the build id comes from .note.gnu.build-id", async () => {
  const elf = fixture("elf-debug");
  const phoff = Number(elf.readBigUInt64LE(32));
  const [size, count] = [elf.readUInt16LE(54), elf.readUInt16LE(56)];
  let patched = 0;
  for (let i = 0; i < count; i++) {
    if (elf.readUInt32LE(phoff + i * size) === 4) {
      elf.writeUInt32LE(0, phoff + i * size);
      patched++;
    }
  }
  expect(patched).toBeGreaterThan(0);
  // sentry-cli: ccc66117-0654-ddba-9931-e54e4b07f9a3 / 1761c6cc5406badd9931e54e4b07f9a3614a9057
  const [o] = await read(elf);
  expect(o!.debugId).toBe("ccc66117-0654-ddba-9931-e54e4b07f9a3");
  expect(o!.codeId).toBe("1761c6cc5406badd9931e54e4b07f9a3614a9057");
});

test("ELF: a section table past the end of the file is a DifParseError", async () => {
  const elf = fixture("elf-debug");
  elf.writeBigUInt64LE(BigInt(elf.length - 10), 40);
  await expect(read(elf)).rejects.toBeInstanceOf(DifParseError);
});

test("PE: a deterministic Portable-PDB build (minor 0x504d) takes the entry's timestamp as age", async () => {
  const pe = fixture("pe-dll.dll");
  const at = pe.readUInt32LE(0x3c);
  const opt = at + 24;
  const [rva, size] = [pe.readUInt32LE(opt + 112 + 48), pe.readUInt32LE(opt + 112 + 52)];
  const table = opt + pe.readUInt16LE(at + 20);
  let dir = -1;
  for (let i = 0; i < pe.readUInt16LE(at + 6); i++) {
    const s = table + i * 40;
    const [vsize, vaddr, rawSize, rawPtr] = [0, 1, 2, 3].map((k) => pe.readUInt32LE(s + 8 + k * 4));
    if (rva >= vaddr! && rva < vaddr! + Math.max(vsize!, rawSize!)) dir = rawPtr! + rva - vaddr!;
  }
  for (let e = 0; e < size / 28; e++) {
    if (pe.readUInt32LE(dir + e * 28 + 12) !== 2) continue;
    pe.writeUInt16LE(0x504d, dir + e * 28 + 10);
    pe.writeUInt32LE(0x1234abcd, dir + e * 28 + 4);
  }
  // sentry-cli: 093843c2-7657-c23f-4c4c-44205044422e-1234abcd
  expect((await read(pe))[0]!.debugId).toBe("093843c2-7657-c23f-4c4c-44205044422e-1234abcd");
});

test("Mach-O: a fat64 header gives the same slices as the fat32 one", async () => {
  const fat = fixture("macho-fat");
  const count = fat.readUInt32BE(4);
  const entries = [...Array(count).keys()].map((i) =>
    [0, 1, 2, 3, 4].map((k) => fat.readUInt32BE(8 + i * 20 + k * 4)),
  );
  fat.writeUInt32BE(0xcafebabf, 0);
  entries.forEach(([cpu, sub, offset, size, align], i) => {
    const at = 8 + i * 32;
    fat.writeUInt32BE(cpu!, at);
    fat.writeUInt32BE(sub!, at + 4);
    fat.writeBigUInt64BE(BigInt(offset!), at + 8);
    fat.writeBigUInt64BE(BigInt(size!), at + 16);
    fat.writeUInt32BE(align!, at + 24);
    fat.writeUInt32BE(0, at + 28);
  });
  const thin = await read(fixture("macho-fat"));
  expect(await read(fat)).toEqual(thin);
});

test("Mach-O: a Java class file (0xcafebabe, version ≥ 45) is not a universal binary", async () => {
  const cls = Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52, ...new Array(60).fill(0)]);
  expect(await detectDif(memoryWindow(cls), "A.class")).toBeNull();
});

test("source bundle: a zip whose offsets do not count the SYSB header is read too", async () => {
  const bundle = fixture("elf-debug.src.zip");
  const eocd = bundle.lastIndexOf(Buffer.from("PK\x05\x06", "latin1"));
  const cdOffset = bundle.readUInt32LE(eocd + 16);
  const cdSize = bundle.readUInt32LE(eocd + 12);
  bundle.writeUInt32LE(cdOffset - 8, eocd + 16);
  for (let pos = cdOffset; pos < cdOffset + cdSize; ) {
    bundle.writeUInt32LE(bundle.readUInt32LE(pos + 42) - 8, pos + 42);
    pos += 46 + bundle.readUInt16LE(pos + 28) + bundle.readUInt16LE(pos + 30) + bundle.readUInt16LE(pos + 32);
  }
  expect((await read(bundle))[0]!.debugId).toBe("ccc66117-0654-ddba-9931-e54e4b07f9a3");
});
