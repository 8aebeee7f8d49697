/**
 * Reading the members of a zip archive for `debug-files upload` (API.md §21.6: zips are searched,
 * nested zips are not): the central directory is read from the end of the file, a member's first
 * bytes are inflated for sniffing, and a member that is debug information is streamed out (stored
 * members are ranges of the archive itself; deflated ones are inflated to a temp file).
 */
import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createInflateRaw, constants as zlib, inflateRawSync } from "node:zlib";
import type { FileWindow } from "./types.ts";

/** One member of an archive. */
export interface ZipMember {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  /** Where the member's (compressed) data starts in the archive. */
  dataOffset: number;
}

const EOCD_SIG = 0x06054b50;
const CEN_SIG = 0x02014b50;
const LOC_SIG = 0x04034b50;
/** The end record is at most this far from the end (22 bytes + a 65,535-byte comment). */
const EOCD_SEARCH = 22 + 0xffff;

/** True when the bytes start like a zip archive. */
export function looksLikeZip(head: Uint8Array): boolean {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 3 && head[3] === 4;
}

/** The file members of an archive (directories left out); throws when the central directory is unreadable. */
export async function listZipMembers(zip: FileWindow): Promise<ZipMember[]> {
  const tailAt = Math.max(0, zip.size - EOCD_SEARCH);
  const tail = await zip.read(tailAt, zip.size - tailAt);
  const tv = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tv.getUint32(i, true) === EOCD_SIG) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error("no zip end-of-central-directory record");
  const count = tv.getUint16(eocd + 10, true);
  const cdSize = tv.getUint32(eocd + 12, true);
  const cdOffset = tv.getUint32(eocd + 16, true);
  if (cdOffset === 0xffffffff || count === 0xffff) throw new Error("ZIP64 archives are not supported");
  if (cdOffset + cdSize > zip.size) throw new Error("the central directory lies past the end of the file");
  const cd = await zip.read(cdOffset, cdSize);
  const dv = new DataView(cd.buffer, cd.byteOffset, cd.byteLength);
  const members: ZipMember[] = [];
  let p = 0;
  for (let i = 0; i < count && p + 46 <= cd.length; i++) {
    if (dv.getUint32(p, true) !== CEN_SIG) throw new Error("corrupt central directory");
    const nlen = dv.getUint16(p + 28, true);
    const name = new TextDecoder().decode(cd.subarray(p + 46, p + 46 + nlen));
    const member = {
      name,
      method: dv.getUint16(p + 10, true),
      compressedSize: dv.getUint32(p + 20, true),
      size: dv.getUint32(p + 24, true),
      dataOffset: dv.getUint32(p + 42, true),
    };
    p += 46 + nlen + dv.getUint16(p + 30, true) + dv.getUint16(p + 32, true);
    if (!name.endsWith("/")) members.push(member);
  }
  for (const m of members) {
    const loc = await zip.read(m.dataOffset, 30);
    const lv = new DataView(loc.buffer, loc.byteOffset, loc.byteLength);
    if (loc.length < 30 || lv.getUint32(0, true) !== LOC_SIG)
      throw new Error(`corrupt local header of ${m.name}`);
    m.dataOffset += 30 + lv.getUint16(26, true) + lv.getUint16(28, true);
  }
  return members;
}

/** The first bytes of a member (inflated when deflated), for sniffing. */
export async function memberHead(zip: FileWindow, m: ZipMember, bytes: number): Promise<Uint8Array> {
  if (m.method === 0) return zip.read(m.dataOffset, Math.min(bytes, m.size));
  if (m.method !== 8) return new Uint8Array();
  const compressed = await zip.read(m.dataOffset, Math.min(m.compressedSize, 64 * 1024));
  try {
    const out = inflateRawSync(compressed, { finishFlush: zlib.Z_SYNC_FLUSH });
    return new Uint8Array(out.buffer, out.byteOffset, Math.min(out.length, bytes));
  } catch {
    return new Uint8Array();
  }
}

/** Streams a deflated member out to `dest` (memory stays at zlib's buffers). */
export async function inflateMember(zipPath: string, m: ZipMember, dest: string): Promise<void> {
  const source = Bun.file(zipPath)
    .slice(m.dataOffset, m.dataOffset + m.compressedSize)
    .stream();
  await pipeline(
    Readable.fromWeb(source as Parameters<typeof Readable.fromWeb>[0]),
    createInflateRaw(),
    createWriteStream(dest, { mode: 0o600 }),
  );
}
