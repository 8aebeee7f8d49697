/**
 * Mach-O reader, thin and fat/universal (32- and 64-bit fat headers), after symbolic-debuginfo's
 * macho/mod.rs: one object per slice, `LC_UUID` as debug id and code id, architecture names as
 * symbolic spells them. Reads only the Mach headers and load commands of each slice.
 */
import { type Bytes, formatUuid, isNil, readExact, toHex } from "./bytes.ts";
import {
  type DifFeature,
  type DifKind,
  type DifObject,
  DifParseError,
  type DifReader,
  type FileWindow,
} from "./types.ts";

const FAT_MAGIC = 0xcafebabe;
const FAT_MAGIC_64 = 0xcafebabf;
const MH_MAGIC = 0xfeedface;
const MH_MAGIC_64 = 0xfeedfacf;
const LC_SEGMENT = 0x1;
const LC_SYMTAB = 0x2;
const LC_UUID = 0x1b;
const LC_SEGMENT_64 = 0x19;
/** Java class files also start with 0xcafebabe; their next word (the version) is at least 45. */
const MAX_FAT_ARCHS = 30;
const MAX_COMMANDS_BYTES = 8 * 1024 * 1024;

const CPU_ARCH_ABI64 = 0x0100_0000;
const CPU_ARCH_ABI64_32 = 0x0200_0000;
const CPU_X86 = 7;
const CPU_ARM = 12;
const CPU_PPC = 18;

const ARM_SUBTYPES: Record<number, string> = {
  0: "arm",
  7: "armv5",
  6: "armv6",
  14: "armv6m",
  9: "armv7",
  10: "armv7f",
  11: "armv7s",
  12: "armv7k",
  15: "armv7m",
  16: "armv7em",
};

/** symbolic's (cputype, cpusubtype) → Arch table. */
function machArch(cpu: number, rawSub: number): string {
  const sub = rawSub & 0x00ff_ffff;
  const pick = (table: Record<number, string>, fallback: string) => table[sub] ?? fallback;
  switch (cpu) {
    case CPU_X86:
      return sub === 3 ? "x86" : "x86_unknown";
    case CPU_X86 | CPU_ARCH_ABI64:
      return pick({ 3: "x86_64", 8: "x86_64h" }, "x86_64_unknown");
    case CPU_ARM | CPU_ARCH_ABI64:
      return pick({ 0: "arm64", 1: "arm64v8", 2: "arm64e" }, "arm64_unknown");
    case CPU_ARM | CPU_ARCH_ABI64_32:
      return pick({ 0: "arm64_32", 1: "arm64_32_v8" }, "arm64_32_unknown");
    case CPU_ARM:
      return pick(ARM_SUBTYPES, "arm_unknown");
    case CPU_PPC:
      return sub === 0 ? "ppc" : "unknown";
    case CPU_PPC | CPU_ARCH_ABI64:
      return sub === 0 ? "ppc64" : "unknown";
    default:
      return "unknown";
  }
}

const KIND: Record<number, DifKind> = {
  1: "rel",
  2: "exe",
  3: "lib",
  4: "other",
  5: "exe",
  6: "lib",
  7: "exe",
  8: "lib",
  10: "dbg",
  11: "lib",
};

function magicOf(head: Bytes): { thin: boolean; is64: boolean; le: boolean } | undefined {
  const be = head.view.getUint32(0, false);
  const le = head.view.getUint32(0, true);
  if (be === MH_MAGIC || be === MH_MAGIC_64) return { thin: true, is64: be === MH_MAGIC_64, le: false };
  if (le === MH_MAGIC || le === MH_MAGIC_64) return { thin: true, is64: le === MH_MAGIC_64, le: true };
  if (be === FAT_MAGIC || be === FAT_MAGIC_64) return { thin: false, is64: be === FAT_MAGIC_64, le: false };
  return undefined;
}

/** A section of a thin Mach-O: its name (`__debug_line`…) and its range, relative to the object's start. */
export interface MachSection {
  name: string;
  offset: number;
  size: number;
}

interface ThinHeader {
  cpu: number;
  sub: number;
  fileType: number;
  uuid?: Uint8Array;
  symtab: boolean;
  sections: MachSection[];
}

/** The Mach header and load commands of one thin Mach-O at [offset, offset+size) of the file. */
async function readLoadCommands(file: FileWindow, offset: number, size: number): Promise<ThinHeader> {
  const head = await readExact(file, offset, 32, "macho", "Mach header");
  const magic = magicOf(head);
  if (!magic?.thin) throw new DifParseError("macho", `no Mach header at byte ${offset}`);
  head.littleEndian = magic.le;
  const ncmds = head.u32(16);
  const sizeofcmds = head.u32(20);
  const headerSize = magic.is64 ? 32 : 28;
  if (sizeofcmds > MAX_COMMANDS_BYTES || headerSize + sizeofcmds > size) {
    throw new DifParseError("macho", `load commands (${sizeofcmds} bytes) do not fit the object`);
  }
  const cmds = await readExact(file, offset + headerSize, sizeofcmds, "macho", "load commands", magic.le);
  const out: ThinHeader = {
    cpu: head.u32(4),
    sub: head.u32(8),
    fileType: head.u32(12),
    symtab: false,
    sections: [],
  };
  let pos = 0;
  for (let i = 0; i < ncmds; i++) {
    const cmd = cmds.u32(pos, "load command");
    const cmdsize = cmds.u32(pos + 4, "load command");
    if (cmdsize < 8 || pos + cmdsize > cmds.length) {
      throw new DifParseError("macho", `load command ${i} has a bad size (${cmdsize})`);
    }
    if (cmd === LC_UUID && !out.uuid) out.uuid = cmds.slice(pos + 8, 16, "LC_UUID");
    if (cmd === LC_SYMTAB) out.symtab = true;
    if (cmd === LC_SEGMENT || cmd === LC_SEGMENT_64) {
      const is64 = cmd === LC_SEGMENT_64;
      const nsects = cmds.u32(pos + (is64 ? 64 : 48), "segment");
      const first = pos + (is64 ? 72 : 56);
      const each = is64 ? 80 : 68;
      if (first + nsects * each > pos + cmdsize)
        throw new DifParseError("macho", "segment sections overflow");
      for (let s = 0; s < nsects; s++) {
        const at = first + s * each;
        const name = new TextDecoder().decode(cmds.slice(at, 16)).replace(/\0.*$/s, "");
        out.sections.push({
          name,
          offset: cmds.u32(at + (is64 ? 48 : 40), "section"),
          // A lying 64-bit size is no error here: whoever reads the section checks it against the file.
          size: is64
            ? cmds.u32(at + 44, "section") * 2 ** 32 + cmds.u32(at + 40, "section")
            : cmds.u32(at + 36, "section"),
        });
      }
    }
    pos += cmdsize;
  }
  return out;
}

/** The sections of the thin Mach-O at [offset, offset+size) (a slice of a fat file, or the whole file). */
export async function machoSections(file: FileWindow, offset: number, size: number): Promise<MachSection[]> {
  return (await readLoadCommands(file, offset, size)).sections;
}

/** One thin Mach-O at [offset, offset+size) of the file. */
async function readThin(file: FileWindow, offset: number, size: number): Promise<DifObject> {
  const { cpu, sub, fileType, uuid, symtab, sections } = await readLoadCommands(file, offset, size);
  /** symbolic's raw_section: the first section `__<name>`; one with offset 0 (stripped by dsymutil) is absent. */
  const has = (name: string) => {
    const s = sections.find((x) => x.name === `__${name}`);
    return s !== undefined && s.offset !== 0;
  };
  const features: DifFeature[] = [];
  if (symtab) features.push("symtab");
  if (has("debug_info")) features.push("debug");
  if (has("eh_frame") || has("debug_frame") || has("unwind_info")) features.push("unwind");
  const id = uuid && !isNil(uuid) ? uuid : undefined;
  return {
    format: "macho",
    kind: KIND[fileType] ?? "other",
    arch: machArch(cpu, sub),
    debugId: id ? formatUuid(id) : null,
    codeId: id ? toHex(id) : null,
    features,
    offset,
    size,
  };
}

async function readMachO(file: FileWindow): Promise<DifObject[]> {
  const head = await readExact(file, 0, 8, "macho", "Mach-O magic");
  const magic = magicOf(head);
  if (!magic) throw new DifParseError("macho", "not a Mach-O file");
  if (magic.thin) return [await readThin(file, 0, file.size)];
  head.littleEndian = false;
  const count = head.u32(4);
  if (count === 0 || count > MAX_FAT_ARCHS)
    throw new DifParseError("macho", `implausible slice count ${count}`);
  const each = magic.is64 ? 32 : 20;
  const table = await readExact(file, 8, count * each, "macho", "fat header", false);
  const objects: DifObject[] = [];
  for (let i = 0; i < count; i++) {
    const at = i * each;
    const offset = magic.is64 ? table.u64(at + 8) : table.u32(at + 8);
    const size = magic.is64 ? table.u64(at + 16) : table.u32(at + 12);
    if (offset + size > file.size)
      throw new DifParseError("macho", `slice ${i} ends past the end of the file`);
    objects.push(await readThin(file, offset, size));
  }
  return objects;
}

function sniffMachO(head: Uint8Array): boolean {
  if (head.length < 8) return false;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const be = view.getUint32(0, false);
  const le = view.getUint32(0, true);
  if ([MH_MAGIC, MH_MAGIC_64].includes(be) || [MH_MAGIC, MH_MAGIC_64].includes(le)) return true;
  if (be !== FAT_MAGIC && be !== FAT_MAGIC_64) return false;
  const count = view.getUint32(4, false);
  return count > 0 && count <= MAX_FAT_ARCHS;
}

/** The Mach-O reader (thin and universal). */
export const machoReader: DifReader = {
  format: "macho",
  sniff: (head) => sniffMachO(head),
  read: (file) => readMachO(file),
};
