/**
 * Cuts a byte range of a file into chunks of the server's `chunkSize` and hashes them (SHA-1 of
 * each chunk and of the whole range) while streaming it: memory stays at one read buffer however
 * large the file is.
 */
import type { FileChunk } from "./types.ts";

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
  for await (const piece of Bun.file(path)
    .slice(offset, offset + size)
    .stream()) {
    let at = 0;
    while (at < piece.length) {
      const n = Math.min(piece.length - at, chunkSize - fill);
      const part = piece.subarray(at, at + n);
      current.update(part);
      whole.update(part);
      fill += n;
      at += n;
      total += n;
      if (fill === chunkSize) end();
    }
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
