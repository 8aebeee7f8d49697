/**
 * PE reader, after symbolic-debuginfo's pe.rs: the CodeView RSDS record of the debug directory
 * gives the debug id (GUID + age, or the entry's timestamp for deterministic Portable-PDB builds)
 * and the PDB path; the code id is TimeDateStamp + SizeOfImage. Reads the headers, the section
 * table and the few directory entries it needs.
 */
import { type Bytes, guidAgeDebugId, readExact, startsWith } from "./bytes.ts";
import { type DifFeature, type DifObject, DifParseError, type DifReader, type FileWindow } from "./types.ts";

const DIR_EXPORT = 0;
const DIR_EXCEPTION = 3;
const DIR_DEBUG = 6;
const DEBUG_TYPE_CODEVIEW = 2;
const DETERMINISTIC_PPDB_MINOR = 0x504d;
const IMAGE_FILE_DLL = 0x2000;
const MAX_DEBUG_ENTRIES = 64;

/** IMAGE_FILE_MACHINE_* → symbolic's architecture names (`arch_from_machine`, shared with PDB). */
const MACHINES = new Map<number, string>([
  [0x14c, "x86"],
  [0x8664, "x86_64"],
  [0x1c0, "arm"],
  [0xaa64, "arm64"],
  [0x1f0, "ppc"],
]);

/** The architecture of a COFF machine type, as symbolic names it ("unknown" for the rest). */
export function machineArch(machine: number): string {
  return MACHINES.get(machine) ?? "unknown";
}

interface PeSection {
  name: string;
  vaddr: number;
  vsize: number;
  rawSize: number;
  rawPtr: number;
}

/** The file offset of an RVA, through the section that maps it. */
function rvaToOffset(sections: PeSection[], rva: number): number | undefined {
  for (const s of sections) {
    const span = Math.max(s.vsize, s.rawSize);
    if (rva >= s.vaddr && rva < s.vaddr + span) return s.rawPtr + (rva - s.vaddr);
  }
  return undefined;
}

/** The section table; `nt` holds the PE signature and COFF header (for the COFF string table). */
async function readSections(file: FileWindow, nt: Bytes, tableAt: number) {
  const count = nt.u16(6);
  const table = await readExact(file, tableAt, count * 40, "pe", "section table");
  const symPtr = nt.u32(12);
  const symCount = nt.u32(16);
  const sections: PeSection[] = [];
  for (let i = 0; i < count; i++) {
    const o = i * 40;
    let name = new TextDecoder().decode(table.slice(o, 8)).replace(/\0.*$/s, "");
    // Names longer than 8 bytes (MinGW's `.debug_info`) are `/<offset>` into the COFF string table.
    const long = /^\/(\d+)$/.exec(name);
    if (long && symPtr > 0) {
      const at = symPtr + symCount * 18 + Number(long[1]);
      if (at < file.size)
        name = (await readExact(file, at, Math.min(256, file.size - at), "pe", "name")).cstring(0);
    }
    sections.push({
      name,
      vsize: table.u32(o + 8),
      vaddr: table.u32(o + 12),
      rawSize: table.u32(o + 16),
      rawPtr: table.u32(o + 20),
    });
  }
  return sections;
}

async function readPe(file: FileWindow): Promise<DifObject[]> {
  const dos = await readExact(file, 0, 64, "pe", "DOS header");
  const at = dos.u32(0x3c);
  const nt = await readExact(file, at, 24, "pe", "PE header");
  if (!startsWith(nt.data, "PE\0\0")) throw new DifParseError("pe", "no PE signature");
  const machine = nt.u16(4);
  const timestamp = nt.u32(8);
  const optSize = nt.u16(20);
  const characteristics = nt.u16(22);
  const opt = await readExact(file, at + 24, optSize, "pe", "optional header");
  const is64 = optSize >= 2 && opt.u16(0) === 0x20b;
  const sizeOfImage = optSize >= 60 ? opt.u32(56) : undefined;
  const dirsAt = is64 ? 112 : 96;
  const dirCount = optSize >= dirsAt ? Math.min(opt.u32(dirsAt - 4), Math.floor((optSize - dirsAt) / 8)) : 0;
  const dir = (i: number) =>
    i < dirCount ? { rva: opt.u32(dirsAt + i * 8), size: opt.u32(dirsAt + i * 8 + 4) } : undefined;
  const secs = await readSections(file, nt, at + 24 + optSize);

  let debugId: string | null = null;
  let debugFile: string | undefined;
  const debugDir = dir(DIR_DEBUG);
  const debugAt = debugDir && debugDir.size > 0 ? rvaToOffset(secs, debugDir.rva) : undefined;
  if (debugDir && debugAt !== undefined) {
    const entries = Math.min(Math.floor(debugDir.size / 28), MAX_DEBUG_ENTRIES);
    const table = await readExact(file, debugAt, entries * 28, "pe", "debug directory");
    for (let i = 0; i < entries; i++) {
      const e = i * 28;
      if (table.u32(e + 12) !== DEBUG_TYPE_CODEVIEW) continue;
      const size = table.u32(e + 16);
      const ptr = table.u32(e + 24);
      if (size < 24) break;
      const cv = await readExact(file, ptr, Math.min(size, 4096), "pe", "CodeView record");
      if (!startsWith(cv.data, "RSDS")) break;
      const age = table.u16(e + 10) === DETERMINISTIC_PPDB_MINOR ? table.u32(e + 4) : cv.u32(20);
      debugId = guidAgeDebugId(cv.slice(4, 16), age);
      if (cv.data.subarray(24).includes(0)) debugFile = cv.cstring(24) || undefined;
      break;
    }
  }

  const features: DifFeature[] = [];
  const exports = dir(DIR_EXPORT);
  const exportAt = exports && exports.size >= 40 ? rvaToOffset(secs, exports.rva) : undefined;
  if (exportAt !== undefined) {
    const ed = await readExact(file, exportAt, 40, "pe", "export directory");
    if (ed.u32(20) > 0 || ed.u32(24) > 0) features.push("symtab");
  }
  if (secs.some((s) => s.name === ".debug_info")) features.push("debug");
  const exception = dir(DIR_EXCEPTION);
  if (is64 && exception && exception.size >= 12) features.push("unwind");

  const object: DifObject = {
    format: "pe",
    kind: characteristics & IMAGE_FILE_DLL ? "lib" : "exe",
    arch: machineArch(machine),
    debugId,
    codeId:
      sizeOfImage === undefined
        ? null
        : `${timestamp.toString(16).padStart(8, "0")}${sizeOfImage.toString(16)}`,
    features,
    offset: 0,
    size: file.size,
  };
  if (debugFile) object.debugFile = debugFile;
  return [object];
}

/** The PE reader (executables and DLLs). */
export const peReader: DifReader = {
  format: "pe",
  sniff: (head) => startsWith(head, "MZ") && head.length >= 64,
  read: (file) => readPe(file),
};
