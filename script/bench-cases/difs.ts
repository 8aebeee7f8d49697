/**
 * `debug-files check` on a 500 MB ELF debug file (issue 33: ≤ 1 s): the elf-debug fixture with its
 * `.debug_info` grown to fill a sparse file and the section header table moved to the end, where
 * linkers put it, so the reader must seek rather than read through. BENCH_DIF_MB changes the size.
 */
import { openSync, readFileSync, truncateSync, writeSync, closeSync } from "node:fs";
import { join, resolve } from "node:path";
import type { BenchCase } from "./types.ts";

const SIZE_MB = Number(process.env.BENCH_DIF_MB ?? 500);
const FIXTURE = resolve(import.meta.dir, "../../test/fixtures/difs/elf-debug");

/** Writes `<dir>/big.debug`: a valid little-endian ELF64 with one huge DWARF section. */
export function writeBigElf(dir: string, sizeMb = SIZE_MB): string {
  const elf = Buffer.from(readFileSync(FIXTURE));
  const shoff = Number(elf.readBigUInt64LE(40));
  const shentsize = elf.readUInt16LE(58);
  const shnum = elf.readUInt16LE(60);
  const shstrndx = elf.readUInt16LE(62);
  const table = Buffer.from(elf.subarray(shoff, shoff + shnum * shentsize));
  const strOff = Number(table.readBigUInt64LE(shstrndx * shentsize + 24));
  const newShoff = sizeMb * 1024 * 1024;
  for (let i = 0; i < shnum; i++) {
    const at = i * shentsize;
    const nameAt = strOff + table.readUInt32LE(at);
    const name = elf.subarray(nameAt, elf.indexOf(0, nameAt)).toString();
    if (name === ".debug_info") {
      const offset = Number(table.readBigUInt64LE(at + 24));
      table.writeBigUInt64LE(BigInt(newShoff - offset), at + 32);
    }
  }
  elf.writeBigUInt64LE(BigInt(newShoff), 40);
  const path = join(dir, "big.debug");
  const fd = openSync(path, "w");
  try {
    writeSync(fd, elf, 0, shoff, 0);
    truncateSync(path, newShoff);
    writeSync(fd, table, 0, table.length, newShoff);
  } finally {
    closeSync(fd);
  }
  return path;
}

/** The bench cases of debug information files. */
export const cases: BenchCase[] = [
  {
    name: `debug-files check (${SIZE_MB} MB ELF)`,
    args: ["debug-files", "check", "big.debug", "--json"],
    target: { p50Ms: 1000, rssMiB: 150 },
    setup: async ({ configDir }) => {
      writeBigElf(configDir);
      return { cwd: configDir };
    },
  },
];

if (import.meta.main) {
  const dir = process.argv[2] ?? ".";
  console.log(writeBigElf(dir));
}
