/**
 * A minimal streaming zip writer for artifact bundles: each entry is written as soon as it is
 * added (local header with known sizes, then the data), only the small central directory is kept
 * until the end. Timestamps are fixed (1980-01-01 00:00) and nothing depends on the machine, so
 * the same entries in the same order give the same bytes. No ZIP64: a bundle stays under 4 GiB
 * and 65,535 entries (a clear error otherwise).
 */
import { ValidationError } from "../errors.ts";

/** Where the zip's bytes go, in order. */
export type ByteSink = (bytes: Uint8Array) => void;

const METHOD_STORE = 0;
const METHOD_DEFLATE = 8;
/** DOS date of 1980-01-01 (day 1, month 1, year 0); time 00:00:00. */
const DOS_DATE = (1 << 5) | 1;
const FLAG_UTF8 = 0x0800;
const MAX_U32 = 0xffff_ffff;
const ENCODER = new TextEncoder();
/** Bytes test-compressed to decide whether a large entry is worth deflating. */
export const SAMPLE = 64 * 1024;

/** A zip entry's method (0 store, 8 deflate) and the bytes stored for it. */
export interface CompressedEntry {
  method: number;
  body: Uint8Array;
}

function deflate(data: Uint8Array): Uint8Array {
  return Bun.deflateSync(data as Uint8Array<ArrayBuffer>, { level: 1, library: "libdeflate" });
}

/** An entry's zip method and body: deflated when that pays, else stored. Same bytes in, same bytes out. */
export function compressEntry(data: Uint8Array): CompressedEntry {
  if (data.length < 64) return { method: METHOD_STORE, body: data };
  if (data.length > SAMPLE * 2 && deflate(data.subarray(0, SAMPLE)).length > SAMPLE * 0.9)
    return { method: METHOD_STORE, body: data };
  const deflated = deflate(data);
  return deflated.length < data.length
    ? { method: METHOD_DEFLATE, body: deflated }
    : { method: METHOD_STORE, body: data };
}

interface CentralEntry {
  name: Uint8Array;
  method: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** Writes zip entries to a sink as they are added. */
export class ZipWriter {
  private offset = 0;
  private readonly entries: CentralEntry[] = [];
  /** `startOffset`: bytes already in front of the zip (a source bundle's header), counted in its offsets. */
  constructor(
    private readonly sink: ByteSink,
    startOffset = 0,
  ) {
    this.offset = startOffset;
  }

  /** Bytes written so far. */
  get size(): number {
    return this.offset;
  }

  private emit(bytes: Uint8Array): void {
    this.sink(bytes);
    this.offset += bytes.length;
  }

  /**
   * Adds one file, deflated (libdeflate level 1: as fast as zlib's level 1 and about a third
   * smaller on source maps) when that makes it smaller. Data under 64 bytes, and data whose first
   * 64 KiB do not shrink by 10% (already compressed, or random), is stored as it is.
   */
  addFile(name: string, data: Uint8Array): void {
    this.addEntry(name, data, compressEntry(data));
  }

  /** Adds one file whose compressEntry() result (possibly computed elsewhere) is given. */
  addEntry(name: string, data: Uint8Array, { method, body }: CompressedEntry): void {
    if (this.entries.length >= 0xffff) throw new ValidationError("The bundle has more than 65,535 files.");
    if (data.length > MAX_U32 || this.offset > MAX_U32)
      throw new ValidationError("The bundle would be larger than 4 GiB; upload the files in parts.");
    const nameBytes = ENCODER.encode(name);
    const crc = Bun.hash.crc32(data);
    const h = new DataView(new ArrayBuffer(30));
    h.setUint32(0, 0x04034b50, true);
    h.setUint16(4, 20, true);
    h.setUint16(6, FLAG_UTF8, true);
    h.setUint16(8, method, true);
    h.setUint16(10, 0, true);
    h.setUint16(12, DOS_DATE, true);
    h.setUint32(14, crc, true);
    h.setUint32(18, body.length, true);
    h.setUint32(22, data.length, true);
    h.setUint16(26, nameBytes.length, true);
    h.setUint16(28, 0, true);
    this.entries.push({
      name: nameBytes,
      method,
      crc,
      compressed: body.length,
      size: data.length,
      offset: this.offset,
    });
    this.emit(new Uint8Array(h.buffer));
    this.emit(nameBytes);
    this.emit(body);
  }

  /** Writes the central directory and the end record; the writer is done after this. */
  finish(): void {
    const start = this.offset;
    for (const e of this.entries) {
      const c = new DataView(new ArrayBuffer(46));
      c.setUint32(0, 0x02014b50, true);
      c.setUint16(4, 20, true);
      c.setUint16(6, 20, true);
      c.setUint16(8, FLAG_UTF8, true);
      c.setUint16(10, e.method, true);
      c.setUint16(12, 0, true);
      c.setUint16(14, DOS_DATE, true);
      c.setUint32(16, e.crc, true);
      c.setUint32(20, e.compressed, true);
      c.setUint32(24, e.size, true);
      c.setUint16(28, e.name.length, true);
      c.setUint32(42, e.offset, true);
      this.emit(new Uint8Array(c.buffer));
      this.emit(e.name);
    }
    if (this.offset > MAX_U32)
      throw new ValidationError("The bundle would be larger than 4 GiB; upload the files in parts.");
    const end = new DataView(new ArrayBuffer(22));
    end.setUint32(0, 0x06054b50, true);
    end.setUint16(8, this.entries.length, true);
    end.setUint16(10, this.entries.length, true);
    end.setUint32(12, this.offset - start, true);
    end.setUint32(16, start, true);
    this.emit(new Uint8Array(end.buffer));
  }
}
