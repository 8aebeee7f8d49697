/**
 * Bounds-checked reads for the object readers: every offset and size that comes from a file goes
 * through here, so a truncated or corrupt file becomes a DifParseError, never a RangeError.
 */
import { type DifFormat, DifParseError, type FileWindow } from "./types.ts";

/** The most one reader asks for in one read (headers, tables, notes), so a lying size cannot exhaust memory. */
export const MAX_READ_BYTES = 16 * 1024 * 1024;

/** A byte slice read from a file, with endian-aware accessors that throw DifParseError when out of range. */
export class Bytes {
  readonly view: DataView;
  constructor(
    readonly data: Uint8Array,
    readonly format: DifFormat,
    public littleEndian = true,
  ) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }

  get length(): number {
    return this.data.length;
  }

  private check(offset: number, size: number, what: string): void {
    if (!Number.isSafeInteger(offset) || offset < 0 || offset + size > this.data.length) {
      throw new DifParseError(this.format, `truncated ${what} at byte ${offset}`);
    }
  }

  u8(offset: number, what = "field"): number {
    this.check(offset, 1, what);
    return this.data[offset]!;
  }

  u16(offset: number, what = "field"): number {
    this.check(offset, 2, what);
    return this.view.getUint16(offset, this.littleEndian);
  }

  u32(offset: number, what = "field"): number {
    this.check(offset, 4, what);
    return this.view.getUint32(offset, this.littleEndian);
  }

  /** A u64 as a number; values above 2^53 (never a valid offset or size here) are an error. */
  u64(offset: number, what = "field"): number {
    this.check(offset, 8, what);
    const value = this.view.getBigUint64(offset, this.littleEndian);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) {
      throw new DifParseError(this.format, `${what} out of range at byte ${offset}`);
    }
    return Number(value);
  }

  slice(offset: number, size: number, what = "data"): Uint8Array {
    this.check(offset, size, what);
    return this.data.subarray(offset, offset + size);
  }

  /** A NUL-terminated string starting at `offset` (to the end of the slice when unterminated). */
  cstring(offset: number, what = "string"): string {
    this.check(offset, 0, what);
    let end = offset;
    while (end < this.data.length && this.data[end] !== 0) end++;
    return new TextDecoder("utf-8", { fatal: false }).decode(this.data.subarray(offset, end));
  }
}

/** Reads exactly `length` bytes at `offset` of the file, or throws DifParseError (truncated, or too large to read). */
export async function readExact(
  file: FileWindow,
  offset: number,
  length: number,
  format: DifFormat,
  what: string,
  littleEndian = true,
): Promise<Bytes> {
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
    throw new DifParseError(format, `${what} has an invalid offset or size`);
  }
  if (length > MAX_READ_BYTES)
    throw new DifParseError(format, `${what} is implausibly large (${length} bytes)`);
  if (offset + length > file.size) {
    throw new DifParseError(
      format,
      `file truncated: ${what} ends at byte ${offset + length} of ${file.size}`,
    );
  }
  const data = length === 0 ? new Uint8Array(0) : await file.read(offset, length);
  if (data.length < length) throw new DifParseError(format, `file truncated while reading ${what}`);
  return new Bytes(data, format, littleEndian);
}

/** Lower-case hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

/** A 16-byte big-endian UUID as `8-4-4-4-12`. */
export function formatUuid(bytes: Uint8Array): string {
  const hex = toHex(bytes.subarray(0, 16)).padEnd(32, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** True when the 16 bytes are all zero (a nil debug id, which Sentry treats as none). */
export function isNil(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 16).every((b) => b === 0);
}

/** Swaps the first three UUID fields of 16 bytes (a Windows GUID's Data1-3 stored little-endian). */
export function swapGuidFields(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(16);
  out.set(bytes.subarray(0, 16));
  out.subarray(0, 4).reverse();
  out.subarray(4, 6).reverse();
  out.subarray(6, 8).reverse();
  return out;
}

/** `debugid::DebugId::from_guid_age`: the GUID as a UUID, plus `-<age hex>` when the age is not 0. */
export function guidAgeDebugId(guid: Uint8Array, age: number): string | null {
  if (isNil(guid) && age === 0) return null;
  const uuid = formatUuid(swapGuidFields(guid));
  return age === 0 ? uuid : `${uuid}-${age.toString(16)}`;
}

/** True when `data` starts with the bytes of `magic` (a string of 8-bit characters). */
export function startsWith(data: Uint8Array, magic: string, at = 0): boolean {
  if (data.length < at + magic.length) return false;
  for (let i = 0; i < magic.length; i++) if (data[at + i] !== magic.charCodeAt(i)) return false;
  return true;
}
