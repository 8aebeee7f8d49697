/**
 * Cuts a byte range of a file into chunks of the server's `chunkSize` and hashes them (SHA-1 of
 * each chunk and of the whole range) while streaming it: memory stays at one read buffer however
 * large the file is.
 */
import { open } from "node:fs/promises";
import { createGzip } from "node:zlib";
import type { FileChunk } from "./types.ts";

/** Bytes read per call while hashing (one reused buffer per file being hashed). */
const READ_BYTES = 1024 * 1024;

/** The checksum of a file range and its chunks. */
export interface HashedRange {
  checksum: string;
  size: number;
  chunks: FileChunk[];
}

/** Streams `size` bytes of `path` from `offset`, hashing each `chunkSize` piece and the whole. */
export async function hashFileRange(
  path: string,
  offset: number,
  size: number,
  chunkSize: number,
): Promise<HashedRange> {
  const whole = new Bun.CryptoHasher("sha1");
  let current = new Bun.CryptoHasher("sha1");
  const chunks: FileChunk[] = [];
  let fill = 0;
  let start = offset;
  let total = 0;
  const end = () => {
    chunks.push({ path, sha1: current.digest("hex"), offset: start, size: fill });
    start += fill;
    fill = 0;
    current = new Bun.CryptoHasher("sha1");
  };
  const fh = await open(path, "r");
  const buf = new Uint8Array(Math.min(READ_BYTES, Math.max(size, 1)));
  try {
    while (total < size) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, size - total), offset + total);
      if (bytesRead === 0) break;
      let at = 0;
      while (at < bytesRead) {
        const n = Math.min(bytesRead - at, chunkSize - fill);
        const part = buf.subarray(at, at + n);
        current.update(part);
        whole.update(part);
        fill += n;
        at += n;
        total += n;
        if (fill === chunkSize) end();
      }
    }
  } finally {
    await fh.close();
  }
  if (fill > 0 || chunks.length === 0) end();
  return { checksum: whole.digest("hex"), size: total, chunks };
}

/** The bytes of one file chunk, read from disk. */
export async function readFileChunk(c: FileChunk): Promise<Uint8Array> {
  return Bun.file(c.path)
    .slice(c.offset, c.offset + c.size)
    .bytes();
}

/**
 * One file chunk, gzipped (level 1) while it is read in READ_BYTES pieces: only the compressed
 * bytes are held, never the raw chunk (a chunk is 8 MiB; a debug file compresses to a third).
 */
export async function readFileChunkGzip(c: FileChunk): Promise<Uint8Array> {
  const gzip = createGzip({ level: 1 });
  const out: Buffer[] = [];
  let outBytes = 0;
  gzip.on("data", (b: Buffer) => {
    out.push(b);
    outBytes += b.length;
  });
  const finished = new Promise<void>((resolve, reject) => {
    gzip.on("end", resolve);
    gzip.on("error", reject);
  });
  const fh = await open(c.path, "r");
  try {
    let at = 0;
    while (at < c.size) {
      const buf = new Uint8Array(Math.min(READ_BYTES, c.size - at));
      const { bytesRead } = await fh.read(buf, 0, buf.length, c.offset + at);
      if (bytesRead === 0) throw new Error(`${c.path} is shorter than when it was hashed`);
      at += bytesRead;
      if (!gzip.write(buf.subarray(0, bytesRead))) await new Promise((r) => gzip.once("drain", r));
    }
  } finally {
    await fh.close();
  }
  gzip.end();
  await finished;
  const joined = new Uint8Array(outBytes);
  let pos = 0;
  for (const b of out) {
    joined.set(b, pos);
    pos += b.length;
  }
  return joined;
}
