/**
 * ELF reader (32/64-bit, either byte order), after symbolic-debuginfo's elf.rs: the GNU build id
 * (PT_NOTE, else `.note.gnu.build-id`) is the code id and, first 16 bytes with the UUID fields
 * swapped for little-endian files, the debug id; without one, the first page of `.text` folded
 * into 16 bytes. Reads the header, the program and section header tables, the string table of
 * section names and the notes; never the sections' contents.
 */
import { Bytes, formatUuid, isNil, readExact, startsWith, toHex } from "./bytes.ts";
import {
  type DifFeature,
  type DifKind,
  type DifObject,
  DifParseError,
  type DifReader,
  type FileWindow,
} from "./types.ts";

const PT_INTERP = 3;
const PT_NOTE = 4;
const SHT_SYMTAB = 2;
const SHT_NOTE = 7;
const SHT_DYNSYM = 11;
const SHT_NOBITS = 8;
const PT_SCE_DYNLIBDATA = 0x6100_0000;
const NT_GNU_BUILD_ID = 3;
const PAGE_SIZE = 4096;
const MAX_NOTES_BYTES = 1024 * 1024;
const MAX_SECTIONS = 65_536 * 4;

const ARCH: Record<number, string> = {
  3: "x86",
  62: "x86_64",
  183: "arm64",
  40: "arm",
  20: "ppc",
  21: "ppc64",
};
const KIND: Record<number, DifKind> = { 1: "rel", 2: "exe", 3: "lib", 65040: "exe", 65048: "lib" };

/** One section header of an ELF file (name resolved from the section name table). */
export interface ElfSection {
  name: string;
  type: number;
  flags: number;
  offset: number;
  size: number;
  align: number;
}

interface Header {
  is64: boolean;
  le: boolean;
  type: number;
  machine: number;
  flags: number;
  phoff: number;
  shoff: number;
  phentsize: number;
  phnum: number;
  shentsize: number;
  shnum: number;
  shstrndx: number;
}

function readHeader(b: Bytes): Header {
  const is64 = b.u8(4) === 2;
  const w = is64 ? 8 : 4;
  const at = 24 + 3 * w;
  return {
    is64,
    le: b.littleEndian,
    type: b.u16(16),
    machine: b.u16(18),
    phoff: is64 ? b.u64(32) : b.u32(28),
    shoff: is64 ? b.u64(40) : b.u32(32),
    flags: b.u32(at),
    phentsize: b.u16(at + 6),
    phnum: b.u16(at + 8),
    shentsize: b.u16(at + 10),
    shnum: b.u16(at + 12),
    shstrndx: b.u16(at + 14),
  };
}

async function readSections(file: FileWindow, h: Header): Promise<ElfSection[]> {
  if (h.shoff === 0) return [];
  const entSize = h.is64 ? 64 : 40;
  if (h.shentsize < entSize) throw new DifParseError("elf", `bad section header size ${h.shentsize}`);
  let count = h.shnum;
  let strndx = h.shstrndx;
  if (count === 0 || strndx === 0xffff) {
    const first = await readExact(file, h.shoff, entSize, "elf", "section header 0", h.le);
    if (count === 0) count = h.is64 ? first.u64(32) : first.u32(20);
    if (strndx === 0xffff) strndx = first.u32(h.is64 ? 40 : 24);
  }
  if (count > MAX_SECTIONS) throw new DifParseError("elf", `implausible section count ${count}`);
  const table = await readExact(file, h.shoff, count * h.shentsize, "elf", "section header table", h.le);
  const raw: Array<ElfSection & { nameOff: number }> = [];
  for (let i = 0; i < count; i++) {
    const o = i * h.shentsize;
    raw.push(
      h.is64
        ? {
            name: "",
            nameOff: table.u32(o),
            type: table.u32(o + 4),
            flags: table.u64(o + 8),
            offset: table.u64(o + 24),
            size: table.u64(o + 32),
            align: table.u64(o + 48),
          }
        : {
            name: "",
            nameOff: table.u32(o),
            type: table.u32(o + 4),
            flags: table.u32(o + 8),
            offset: table.u32(o + 16),
            size: table.u32(o + 20),
            align: table.u32(o + 32),
          },
    );
  }
  const strtab = raw[strndx];
  if (strtab && strtab.size > 0) {
    const names = await readExact(file, strtab.offset, strtab.size, "elf", "section name table", h.le);
    for (const s of raw) s.name = s.nameOff < names.length ? names.cstring(s.nameOff) : "";
  }
  return raw;
}

/** The desc of the first NT_GNU_BUILD_ID note in a block of notes; undefined at the first malformed note. */
function buildIdNote(notes: Bytes, align: number): Uint8Array | undefined {
  const pad = (n: number) => Math.ceil(n / align) * align;
  let pos = 0;
  while (pos + 12 <= notes.length) {
    const nameSize = notes.u32(pos);
    const descSize = notes.u32(pos + 4);
    const type = notes.u32(pos + 8);
    const descAt = pos + 12 + pad(nameSize);
    if (descAt + descSize > notes.length) return undefined;
    if (type === NT_GNU_BUILD_ID) return notes.slice(descAt, descSize);
    pos = descAt + pad(descSize);
  }
  return undefined;
}

async function readNotes(
  file: FileWindow,
  h: Header,
  offset: number,
  size: number,
): Promise<Bytes | undefined> {
  if (size === 0 || size > MAX_NOTES_BYTES || offset + size > file.size) return undefined;
  return readExact(file, offset, size, "elf", "notes", h.le);
}

/**
 * symbolic's find_section: any section that is not NOBITS and has data in the file, named with a
 * leading `.` (compressed: `.z` prefix or SHF_COMPRESSED, same name either way).
 */
function findSection(sections: ElfSection[], name: string): ElfSection | undefined {
  for (const s of sections) {
    if (s.type === SHT_NOBITS || s.offset === 0 || !s.name.startsWith(".")) continue;
    const bare = s.name.startsWith(".z") ? s.name.slice(2) : s.name.slice(1);
    if (bare === name) return s;
  }
  return undefined;
}

function swapFields(id: Uint8Array, le: boolean): Uint8Array {
  const data = new Uint8Array(16);
  data.set(id.subarray(0, 16));
  if (le) {
    data.subarray(0, 4).reverse();
    data.subarray(4, 6).reverse();
    data.subarray(6, 8).reverse();
  }
  return data;
}

async function findBuildId(file: FileWindow, h: Header, phdrs: Bytes, sections: ElfSection[]) {
  for (let i = 0; i < h.phnum; i++) {
    const o = i * h.phentsize;
    if (phdrs.u32(o) !== PT_NOTE) continue;
    const offset = h.is64 ? phdrs.u64(o + 8) : phdrs.u32(o + 4);
    const size = h.is64 ? phdrs.u64(o + 32) : phdrs.u32(o + 16);
    const align = h.is64 ? phdrs.u64(o + 48) : phdrs.u32(o + 28);
    const notes = await readNotes(file, h, offset, size);
    const id = notes && buildIdNote(notes, align === 8 ? 8 : 4);
    if (id) return id;
  }
  for (const s of sections) {
    if (s.type !== SHT_NOTE || s.name !== ".note.gnu.build-id") continue;
    const notes = await readNotes(file, h, s.offset, s.size);
    const id = notes && buildIdNote(notes, s.align === 8 ? 8 : 4);
    if (id) return id;
  }
  for (let i = 0; i < h.phnum; i++) {
    const o = i * h.phentsize;
    if (phdrs.u32(o) !== PT_SCE_DYNLIBDATA) continue;
    const offset = h.is64 ? phdrs.u64(o + 8) : phdrs.u32(o + 4);
    const fileSize = h.is64 ? phdrs.u64(o + 32) : phdrs.u32(o + 16);
    if (fileSize >= 20 && offset + 20 <= file.size)
      return (await readExact(file, offset, 20, "elf", "PS4 id", h.le)).data;
  }
  return undefined;
}

async function readElfHeader(file: FileWindow): Promise<Header> {
  const ident = await readExact(file, 0, 16, "elf", "ELF identification");
  if (ident.u8(4) !== 1 && ident.u8(4) !== 2) throw new DifParseError("elf", "unknown ELF class");
  if (ident.u8(5) !== 1 && ident.u8(5) !== 2) throw new DifParseError("elf", "unknown ELF byte order");
  const le = ident.u8(5) === 1;
  return readHeader(await readExact(file, 0, ident.u8(4) === 2 ? 64 : 52, "elf", "ELF header", le));
}

/** The section headers of an ELF file and its byte order and class (for readers of section contents). */
export async function elfSections(
  file: FileWindow,
): Promise<{ le: boolean; is64: boolean; sections: ElfSection[] }> {
  const h = await readElfHeader(file);
  return { le: h.le, is64: h.is64, sections: await readSections(file, h) };
}

async function readElf(file: FileWindow): Promise<DifObject[]> {
  const h = await readElfHeader(file);
  const le = h.le;
  const phEnt = h.is64 ? 56 : 32;
  if (h.phnum > 0 && h.phentsize < phEnt)
    throw new DifParseError("elf", `bad program header size ${h.phentsize}`);
  const phdrs =
    h.phnum > 0
      ? await readExact(file, h.phoff, h.phnum * h.phentsize, "elf", "program headers", le)
      : new Bytes(new Uint8Array(0), "elf", le);
  const sections = await readSections(file, h);
  const sectionEnd = (s: ElfSection) => s.offset + s.size;
  for (const s of sections) {
    if (s.type !== SHT_NOBITS && s.size > 0 && sectionEnd(s) > file.size && s.type !== 0) {
      throw new DifParseError("elf", `section ${s.name || "(unnamed)"} ends past the end of the file`);
    }
  }
  const buildId = await findBuildId(file, h, phdrs, sections);
  let debugId: string | null = null;
  if (buildId) {
    const data = swapFields(buildId, le);
    debugId = isNil(data) ? null : formatUuid(data);
  } else {
    const text = findSection(sections, "text");
    if (text) {
      const page = await readExact(file, text.offset, Math.min(text.size, PAGE_SIZE), "elf", ".text", le);
      const hash = new Uint8Array(16);
      for (let i = 0; i < page.length; i++) hash[i % 16]! ^= page.data[i]!;
      const data = swapFields(hash, le);
      debugId = isNil(data) ? null : formatUuid(data);
    }
  }
  let hasInterp = false;
  for (let i = 0; i < h.phnum; i++) if (phdrs.u32(i * h.phentsize) === PT_INTERP) hasInterp = true;
  let kind: DifKind = KIND[h.type] ?? "other";
  if (kind === "exe" && !hasInterp) kind = "dbg";
  if (kind === "lib" && !findSection(sections, "text")) kind = "dbg";
  const features: DifFeature[] = [];
  const hasEntries = (s: ElfSection, type: number) => s.type === type && s.size > 0;
  if (sections.some((s) => hasEntries(s, SHT_SYMTAB) || hasEntries(s, SHT_DYNSYM))) features.push("symtab");
  if (findSection(sections, "debug_info")) features.push("debug");
  if (findSection(sections, "eh_frame") || findSection(sections, "debug_frame")) features.push("unwind");
  const object: DifObject = {
    format: "elf",
    kind,
    arch: elfArch(h),
    debugId,
    codeId: buildId && buildId.length > 0 ? toHex(buildId) : null,
    features,
    offset: 0,
    size: file.size,
  };
  const link = findSection(sections, "gnu_debuglink");
  if (link && link.size > 0) {
    const data = await readExact(file, link.offset, Math.min(link.size, 4096), "elf", ".gnu_debuglink", le);
    const name = data.cstring(0);
    if (name) object.debugFile = name;
  }
  return [object];
}

function elfArch(h: Header): string {
  if (h.machine === 8 || h.machine === 10) return h.flags & 0x6000 ? "mips64" : "mips";
  return ARCH[h.machine] ?? "unknown";
}

/** The ELF reader. */
export const elfReader: DifReader = {
  format: "elf",
  sniff: (head) => startsWith(head, "\x7fELF"),
  read: (file) => readElf(file),
};
