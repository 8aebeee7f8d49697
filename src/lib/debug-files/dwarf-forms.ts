/**
 * Reading DWARF data for the line-table reader (dwarf-lines.ts): a bounds-checked cursor (unit
 * lengths in 32- and 64-bit DWARF, LEB128) and the attribute forms of DWARF 2-5 plus the GNU
 * extensions, read or skipped by size. Every read goes through Bytes, so corrupt data is a
 * DifParseError; `DW_FORM_indirect` is the only form that names another, and it may not nest.
 */
import type { Bytes } from "./bytes.ts";
import { DifParseError } from "./types.ts";

/** Sizes of the fixed-size forms (data, flags, references, ref_sig8, ref_sup, addrx1-4); strx1-4 name strings and are read apart. */
const FIXED_FORM_SIZES = new Map<number, number>([
  [0x05, 2],
  [0x06, 4],
  [0x07, 8],
  [0x0b, 1],
  [0x0c, 1],
  [0x11, 1],
  [0x12, 2],
  [0x13, 4],
  [0x14, 8],
  [0x1c, 4],
  [0x1e, 16],
  [0x20, 8],
  [0x24, 8],
  [0x29, 1],
  [0x2a, 2],
  [0x2b, 3],
  [0x2c, 4],
]);
/** Largest LEB128 scale accepted (a value must stay a safe integer). */
const MAX_LEB_SCALE = 2 ** 45;

/** A reading position in one section, with the unit's offset size. */
export class Cursor {
  offsetSize = 4;
  constructor(
    readonly b: Bytes,
    public pos: number,
  ) {}
  u8(): number {
    return this.b.u8(this.pos++);
  }
  u16(): number {
    const v = this.b.u16(this.pos);
    this.pos += 2;
    return v;
  }
  u32(): number {
    const v = this.b.u32(this.pos);
    this.pos += 4;
    return v;
  }
  u64(): number {
    const v = this.b.u64(this.pos);
    this.pos += 8;
    return v;
  }
  sized(n: number): number {
    if (n === 1) return this.u8();
    if (n === 2) return this.u16();
    if (n === 4) return this.u32();
    if (n === 8) return this.u64();
    if (n === 3) return this.u16() + this.u8() * 0x10000;
    throw new DifParseError(this.b.format, `unsupported field size ${n}`);
  }
  offset(): number {
    return this.sized(this.offsetSize);
  }
  uleb(): number {
    let result = 0;
    let scale = 1;
    for (;;) {
      const byte = this.u8();
      result += (byte & 0x7f) * scale;
      if (!(byte & 0x80)) return result;
      scale *= 128;
      if (scale > MAX_LEB_SCALE) throw new DifParseError(this.b.format, "LEB128 value too large");
    }
  }
  skip(n: number): void {
    if (!Number.isSafeInteger(n) || n < 0 || this.pos + n > this.b.length)
      throw new DifParseError(this.b.format, `truncated DWARF data at byte ${this.pos}`);
    this.pos += n;
  }
  cstring(): string {
    const s = this.b.cstring(this.pos);
    const end = this.b.data.indexOf(0, this.pos);
    if (end < 0) throw new DifParseError(this.b.format, `unterminated DWARF string at byte ${this.pos}`);
    this.pos = end + 1;
    return s;
  }
  /** Reads the unit length (32- or 64-bit DWARF) and sets the offset size; returns the unit's end. */
  unitLength(): number {
    let len = this.u32();
    if (len === 0xffff_ffff) {
      this.offsetSize = 8;
      len = this.u64();
    } else this.offsetSize = 4;
    const end = this.pos + len;
    if (len < 2 || end > this.b.length) throw new DifParseError(this.b.format, "DWARF unit past its section");
    return end;
  }
}

/** A form's value: a number, an inline string, or a reference to a string section. */
export type FormValue = number | string | { strx: number } | { str: "str" | "line_str"; at: number } | null;

/** Skips `n` bytes of a value nobody needs (blocks, expressions, 16-byte data). */
function skipped(c: Cursor, n: number): null {
  c.skip(n);
  return null;
}

/** Reads (or skips) one attribute value of `form`. */
export function readForm(c: Cursor, form: number, addrSize: number, version: number): FormValue {
  const width = FIXED_FORM_SIZES.get(form);

  if (width !== undefined) {
    if (width > 8) return skipped(c, width);
    return c.sized(width);
  }
  switch (form) {
    case 0x01:
      return c.sized(addrSize);
    case 0x03:
      return skipped(c, c.u16());
    case 0x04:
      return skipped(c, c.u32());
    case 0x09:
    case 0x18:
      return skipped(c, c.uleb());
    case 0x0a:
      return skipped(c, c.u8());
    case 0x08:
      return c.cstring();
    case 0x0d:
    case 0x0f:
    case 0x15:
    case 0x1b:
    case 0x22:
    case 0x23:
    case 0x1f01:
      return c.uleb();
    case 0x0e:
      return { str: "str", at: c.offset() };
    case 0x1f:
      return { str: "line_str", at: c.offset() };
    case 0x10:
      return version <= 2 ? c.sized(addrSize) : c.offset();
    case 0x17:
    case 0x1d:
    case 0x1f20:
    case 0x1f21:
      return c.offset();
    case 0x19:
    case 0x21:
      return null;
    case 0x1a:
    case 0x1f02:
      return { strx: c.uleb() };
    case 0x25:
    case 0x26:
    case 0x27:
    case 0x28:
      return { strx: c.sized(form - 0x24) };
    case 0x16: {
      const inner = c.uleb();
      if (inner === 0x16) throw new DifParseError(c.b.format, "nested DW_FORM_indirect");
      return readForm(c, inner, addrSize, version);
    }
    default:
      throw new DifParseError(c.b.format, `unknown DWARF form 0x${form.toString(16)}`);
  }
}
