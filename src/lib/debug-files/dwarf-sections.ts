/**
 * The DWARF sections a source bundle needs (`.debug_line`, `.debug_info`, `.debug_abbrev`,
 * `.debug_str`, `.debug_line_str`, `.debug_str_offsets`) of one ELF or Mach-O object, read whole
 * (each at most MAX_DWARF_SECTION_BYTES, inflated ones too). Compressed ELF sections are inflated:
 * SHF_COMPRESSED with zlib (`-gz=zlib`) and the older `.zdebug_*` (`ZLIB` + big-endian size);
 * any other compression is a DifParseError the caller turns into a note.
 */
import { inflateSync } from "node:zlib";
import { Bytes, readExact, startsWith } from "./bytes.ts";
import { elfSections } from "./elf.ts";
import { machoSections } from "./macho.ts";
import { type DifFormat, type DifObject, DifParseError, type FileWindow } from "./types.ts";

/** Largest DWARF section read for sources (after inflating). */
export const MAX_DWARF_SECTION_BYTES = 64 * 1024 * 1024;

/** The DWARF section names (without `.debug_` / `__debug_`) a source bundle reads. */
export const DWARF_SECTIONS = ["line", "info", "abbrev", "str", "line_str", "str_offsets"] as const;
/** One of DWARF_SECTIONS. */
export type DwarfSectionName = (typeof DWARF_SECTIONS)[number];

/** The sections found (absent ones are missing), and the object's byte order. */
export interface DwarfSections {
  format: DifFormat;
  littleEndian: boolean;
  data: Partial<Record<DwarfSectionName, Bytes>>;
}

const SHT_NOBITS = 8;
const SHF_COMPRESSED = 0x800;
const ELFCOMPRESS_ZLIB = 1;

async function readRange(
  file: FileWindow,
  offset: number,
  size: number,
  format: DifFormat,
  what: string,
): Promise<Uint8Array> {
  if (size > MAX_DWARF_SECTION_BYTES)
    throw new DifParseError(format, `${what} is larger than ${MAX_DWARF_SECTION_BYTES} bytes`);
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(size) || offset < 0 || size < 0)
    throw new DifParseError(format, `${what} has an invalid offset or size`);
  if (offset + size > file.size) throw new DifParseError(format, `${what} ends past the end of the file`);
  const data = size === 0 ? new Uint8Array(0) : await file.read(offset, size);
  if (data.length < size) throw new DifParseError(format, `file truncated while reading ${what}`);
  return data;
}

function inflate(raw: Uint8Array, size: number, what: string): Uint8Array {
  if (size > MAX_DWARF_SECTION_BYTES)
    throw new DifParseError("elf", `${what} inflates past ${MAX_DWARF_SECTION_BYTES} bytes`);
  try {
    return inflateSync(raw, { maxOutputLength: Math.max(1, size) });
  } catch {
    throw new DifParseError("elf", `${what} does not inflate`);
  }
}

/** An ELF section's contents, inflated when it is compressed. */
function decompressElf(raw: Uint8Array, name: string, flags: number, le: boolean, is64: boolean): Uint8Array {
  const b = new Bytes(raw, "elf", le);
  if (flags & SHF_COMPRESSED) {
    const type = b.u32(0, "compression header");
    if (type !== ELFCOMPRESS_ZLIB)
      throw new DifParseError("elf", `${name} uses compression type ${type} (only zlib is read)`);
    const size = is64 ? b.u64(8, "compression header") : b.u32(4, "compression header");
    return inflate(raw.subarray(is64 ? 24 : 12), size, name);
  }
  if (name.startsWith(".zdebug_")) {
    if (!startsWith(raw, "ZLIB")) throw new DifParseError("elf", `${name} has no ZLIB header`);
    const size = new Bytes(raw, "elf", false).u64(4, "ZLIB header");
    return inflate(raw.subarray(12), size, name);
  }
  return raw;
}

/**
 * A huge `.debug_info` (or its abbreviations) is left unread rather than failing the object: it
 * only gives DWARF 2-4 units their compilation directory, and DWARF 5 line tables name it anyway.
 */
function skippable(key: DwarfSectionName, size: number): boolean {
  return (key === "info" || key === "abbrev") && size > MAX_DWARF_SECTION_BYTES;
}

async function elfDwarf(file: FileWindow): Promise<DwarfSections> {
  const { le, is64, sections } = await elfSections(file);
  const data: DwarfSections["data"] = {};
  for (const s of sections) {
    const m = /^\.z?debug_(.+)$/.exec(s.name);
    const key = m?.[1] as DwarfSectionName | undefined;
    if (!key || !DWARF_SECTIONS.includes(key) || data[key] || s.type === SHT_NOBITS || s.offset === 0)
      continue;
    if (skippable(key, s.size)) continue;
    const raw = await readRange(file, s.offset, s.size, "elf", s.name);
    data[key] = new Bytes(decompressElf(raw, s.name, s.flags, le, is64), "elf", le);
  }
  return { format: "elf", littleEndian: le, data };
}

async function machoDwarf(file: FileWindow, object: DifObject): Promise<DwarfSections> {
  const head = await readExact(file, object.offset, 4, "macho", "Mach header");
  const le = head.view.getUint32(0, true) === 0xfeedface || head.view.getUint32(0, true) === 0xfeedfacf;
  const data: DwarfSections["data"] = {};
  for (const s of await machoSections(file, object.offset, object.size)) {
    const key = /^__debug_(.+)$/.exec(s.name)?.[1] as DwarfSectionName | undefined;
    if (!key || !DWARF_SECTIONS.includes(key) || data[key] || s.offset === 0) continue;
    if (s.offset + s.size > object.size)
      throw new DifParseError("macho", `${s.name} ends past the end of the object`);
    if (skippable(key, s.size)) continue;
    const raw = await readRange(file, object.offset + s.offset, s.size, "macho", s.name);
    data[key] = new Bytes(raw, "macho", le);
  }
  return { format: "macho", littleEndian: le, data };
}

/** The bytes [offset, offset+size) of a file as a window of their own (an ELF stored in a zip). */
function rangeOf(file: FileWindow, offset: number, size: number): FileWindow {
  if (offset === 0 && size === file.size) return file;
  return {
    size,
    read: (at, length) => file.read(offset + at, Math.max(0, Math.min(length, size - at))),
  };
}

/** The DWARF sections of an ELF or Mach-O object (one slice of a fat file); other formats have none here. */
export async function readDwarfSections(file: FileWindow, object: DifObject): Promise<DwarfSections | null> {
  if (object.format === "elf") return elfDwarf(rangeOf(file, object.offset, object.size));
  if (object.format === "macho") return machoDwarf(file, object);
  return null;
}
