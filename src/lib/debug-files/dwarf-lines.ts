/**
 * The source files an object's DWARF names, for source bundles (API.md §21.7): every line program
 * header in `.debug_line` (DWARF 2–5: include_directories and file_names; v5 entry formats with
 * DW_FORM_string/line_strp/strp/strx), each name joined with its directory and the compilation
 * directory (DW_AT_comp_dir of the unit whose DW_AT_stmt_list points at the program; in v5
 * directory 0). Only the unit headers and the first DIE of each unit are read from `.debug_info`.
 * Loops only (no recursion on file data); every read is bounds-checked (DifParseError).
 */
import { posix, win32 } from "node:path";
import type { Bytes } from "./bytes.ts";
import { Cursor, type FormValue, readForm } from "./dwarf-forms.ts";
import type { DwarfSections } from "./dwarf-sections.ts";
import { DifParseError } from "./types.ts";

const DW_AT_name = 0x03;
const DW_AT_stmt_list = 0x10;
const DW_AT_comp_dir = 0x1b;
const DW_AT_str_offsets_base = 0x72;
const DW_LNCT_path = 1;
const DW_LNCT_directory_index = 2;
/** Most units, directories or files one object may declare (a corrupt count must not spin). */
const MAX_ENTRIES = 1_000_000;

/** What a line program needs from its compilation unit. */
interface UnitRoot {
  compDir?: string;
  name?: string;
}

function strOf(d: DwarfSections, v: FormValue, strBase: number, offsetSize: number): string | undefined {
  if (typeof v === "string") return v;
  if (v && typeof v === "object" && "str" in v) {
    const sec = d.data[v.str];
    return sec && v.at < sec.length ? sec.cstring(v.at) : undefined;
  }
  if (v && typeof v === "object" && "strx" in v) {
    const offsets = d.data.str_offsets;
    const str = d.data.str;
    if (!offsets || !str) return undefined;
    const c = new Cursor(offsets, strBase + v.strx * offsetSize);
    c.offsetSize = offsetSize;
    const at = c.offset();
    return at < str.length ? str.cstring(at) : undefined;
  }
  return undefined;
}

/** The attributes of the first DIE of the abbreviation `code` at `abbrevAt`: [name, form, implicit][]. */
function abbrevSpecs(abbrev: Bytes, abbrevAt: number, code: number): Array<[number, number]> {
  const c = new Cursor(abbrev, abbrevAt);
  for (let n = 0; n < MAX_ENTRIES; n++) {
    const entry = c.uleb();
    if (entry === 0) break;
    c.uleb();
    c.u8();
    const specs: Array<[number, number]> = [];
    for (;;) {
      const name = c.uleb();
      const form = c.uleb();
      if (name === 0 && form === 0) break;
      if (form === 0x21) c.uleb();
      specs.push([name, form]);
    }
    if (entry === code) return specs;
  }
  throw new DifParseError(abbrev.format, `DWARF abbreviation ${code} not found`);
}

/** Maps each line program offset to its unit's comp_dir and name (from the first DIE of every unit). */
function unitRoots(d: DwarfSections): Map<number, UnitRoot> {
  const roots = new Map<number, UnitRoot>();
  const info = d.data.info;
  const abbrev = d.data.abbrev;
  if (!info || !abbrev) return roots;
  const c = new Cursor(info, 0);
  for (let n = 0; c.pos < info.length && n < MAX_ENTRIES; n++) {
    const end = c.unitLength();
    const version = c.u16();
    let unitType = 1;
    let addrSize: number;
    let abbrevAt: number;
    if (version >= 5) {
      unitType = c.u8();
      addrSize = c.u8();
      abbrevAt = c.offset();
      if (unitType === 4 || unitType === 5) c.skip(8);
      if (unitType === 2 || unitType === 6) c.skip(8 + c.offsetSize);
    } else {
      abbrevAt = c.offset();
      addrSize = c.u8();
    }
    if (unitType === 1 || unitType === 3 || unitType === 4) {
      const code = c.uleb();
      if (code !== 0) {
        const values = new Map<number, FormValue>();
        for (const [name, form] of abbrevSpecs(abbrev, abbrevAt, code))
          values.set(name, readForm(c, form, addrSize, version));
        const stmt = values.get(DW_AT_stmt_list);
        const base = values.get(DW_AT_str_offsets_base);
        const strBase = typeof base === "number" ? base : 8;
        if (typeof stmt === "number")
          roots.set(stmt, {
            compDir: strOf(d, values.get(DW_AT_comp_dir) ?? null, strBase, c.offsetSize),
            name: strOf(d, values.get(DW_AT_name) ?? null, strBase, c.offsetSize),
          });
      }
    }
    c.pos = end;
  }
  return roots;
}

/** Joins DWARF path parts the way the producer's platform would (a drive letter or `\` means Windows). */
function joinPath(base: string | undefined, path: string): string {
  const windows = /^[A-Za-z]:[\\/]|^\\\\/.test(path) || /^[A-Za-z]:[\\/]|^\\\\/.test(base ?? "");
  const lib = windows ? win32 : posix;
  if (!base || lib.isAbsolute(path)) return path;
  return lib.join(base, path);
}

function isAbsolute(path: string): boolean {
  return posix.isAbsolute(path) || win32.isAbsolute(path);
}

/** v5 entry list: a format (content type, form pairs), then `count` entries of it. */
function v5Entries(c: Cursor, d: DwarfSections, addrSize: number): Array<{ path?: string; dir: number }> {
  const formatCount = c.u8();
  const format: Array<[number, number]> = [];
  for (let i = 0; i < formatCount; i++) format.push([c.uleb(), c.uleb()]);
  const count = c.uleb();
  if (count > MAX_ENTRIES) throw new DifParseError(c.b.format, `implausible line table size ${count}`);
  const out: Array<{ path?: string; dir: number }> = [];
  for (let i = 0; i < count; i++) {
    const entry: { path?: string; dir: number } = { dir: 0 };
    for (const [type, form] of format) {
      const v = readForm(c, form, addrSize, 5);
      if (type === DW_LNCT_path) entry.path = strOf(d, v, 8, c.offsetSize);
      if (type === DW_LNCT_directory_index && typeof v === "number") entry.dir = v;
    }
    out.push(entry);
  }
  return out;
}

/** The files of the line program at `at`, as written (joined with their directories). */
function programFiles(d: DwarfSections, line: Bytes, at: number, root: UnitRoot | undefined): string[] {
  const c = new Cursor(line, at);
  c.unitLength();
  const version = c.u16();
  if (version < 2 || version > 5)
    throw new DifParseError(line.format, `unsupported line table version ${version}`);
  let addrSize = 8;
  if (version >= 5) {
    addrSize = c.u8();
    c.u8();
  }
  c.offset();
  c.skip(version >= 4 ? 5 : 4);
  const opcodeBase = c.u8();
  c.skip(Math.max(0, opcodeBase - 1));
  const files: string[] = [];
  if (version >= 5) {
    const dirs = v5Entries(c, d, addrSize).map((e) => e.path ?? "");
    const compDir = dirs[0] || root?.compDir;
    const absDir = (i: number) => joinPath(compDir, dirs[i] ?? "");
    for (const f of v5Entries(c, d, addrSize)) if (f.path) files.push(joinPath(absDir(f.dir), f.path));
    return files;
  }
  const dirs: string[] = [];
  for (let s = c.cstring(); s !== ""; s = c.cstring()) {
    dirs.push(s);
    if (dirs.length > MAX_ENTRIES) throw new DifParseError(line.format, "implausible directory count");
  }
  for (let name = c.cstring(); name !== ""; name = c.cstring()) {
    const dir = c.uleb();
    c.uleb();
    c.uleb();
    const dirPath = dir === 0 ? root?.compDir : joinPath(root?.compDir, dirs[dir - 1] ?? "");
    files.push(joinPath(dirPath, name));
    if (files.length > MAX_ENTRIES) throw new DifParseError(line.format, "implausible file count");
  }
  return files;
}

/** The source files the DWARF of an object names: absolute paths (deduplicated, in order), and relative ones that could not be resolved. */
export function dwarfSourceFiles(d: DwarfSections): { absolute: string[]; unresolved: string[] } {
  const line = d.data.line;
  const absolute = new Set<string>();
  const unresolved = new Set<string>();
  if (!line) return { absolute: [], unresolved: [] };
  const roots = unitRoots(d);
  const c = new Cursor(line, 0);
  for (let n = 0; c.pos < line.length && n < MAX_ENTRIES; n++) {
    const at = c.pos;
    const end = c.unitLength();
    for (const f of programFiles(d, line, at, roots.get(at))) (isAbsolute(f) ? absolute : unresolved).add(f);
    c.pos = end;
  }
  return { absolute: [...absolute], unresolved: [...unresolved] };
}
