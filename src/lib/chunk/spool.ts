/**
 * Cuts a byte stream into chunks of the server's `chunkSize` while it is produced: each chunk is
 * hashed (SHA-1, incrementally, as the bytes arrive) and appended to a temp file, and the whole
 * stream is hashed too (the bundle's checksum). Nothing is buffered but small writes; the chunks
 * the server lacks are read back by offset.
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

function writeAll(fd: number, bytes: Uint8Array): void {
  let at = 0;
  while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
}

import type { Chunk } from "./types.ts";

export type { Chunk } from "./types.ts";

/** Writes smaller than this are gathered before they reach the file (zip headers and names). */
const GATHER = 256 * 1024;

/** A chunked, hashed copy of a byte stream in a temp file. */
export class ChunkSpool {
  readonly chunks: Chunk[] = [];
  readonly path: string;
  private readonly dir: string;
  private readonly fd: number;
  /** Small writes not yet in the file. */
  private readonly gather = new Uint8Array(GATHER);
  private gathered = 0;
  /** Bytes of the current (unfinished) chunk, and its hash so far. */
  private fill = 0;
  private current = new Bun.CryptoHasher("sha1");
  private written = 0;
  private readonly whole = new Bun.CryptoHasher("sha1");

  constructor(readonly chunkSize: number) {
    this.dir = mkdtempSync(join(tmpdir(), "tracker-bundle-"));
    this.path = join(this.dir, "bundle.zip");
    this.fd = openSync(this.path, "w", 0o600);
  }

  /** Appends bytes to the stream: hashed in place (no copy), small pieces gathered into one write. */
  write(bytes: Uint8Array): void {
    let at = 0;
    while (at < bytes.length) {
      const n = Math.min(bytes.length - at, this.chunkSize - this.fill);
      const piece = at === 0 && n === bytes.length ? bytes : bytes.subarray(at, at + n);
      this.current.update(piece);
      this.whole.update(piece);
      this.store(piece);
      this.fill += n;
      at += n;
      if (this.fill === this.chunkSize) this.endChunk();
    }
  }

  private store(piece: Uint8Array): void {
    if (piece.length >= GATHER / 4 || this.gathered + piece.length > GATHER) this.drain();
    if (piece.length >= GATHER / 4) writeAll(this.fd, piece);
    else {
      this.gather.set(piece, this.gathered);
      this.gathered += piece.length;
    }
  }

  private drain(): void {
    if (this.gathered > 0) writeAll(this.fd, this.gather.subarray(0, this.gathered));
    this.gathered = 0;
  }

  private endChunk(): void {
    if (this.fill === 0) return;
    this.chunks.push({ sha1: this.current.digest("hex"), offset: this.written, size: this.fill });
    this.current = new Bun.CryptoHasher("sha1");
    this.written += this.fill;
    this.fill = 0;
  }

  /** Ends the stream; returns the SHA-1 of all of it. */
  finish(): string {
    this.endChunk();
    this.drain();
    closeSync(this.fd);
    return this.whole.digest("hex");
  }

  /** Total bytes spooled. */
  get size(): number {
    return this.written + this.fill;
  }

  /** A chunk's bytes, read from the temp file. */
  async read(c: Chunk): Promise<Uint8Array> {
    return Bun.file(this.path)
      .slice(c.offset, c.offset + c.size)
      .bytes();
  }

  /** Removes the temp file. */
  dispose(): void {
    try {
      closeSync(this.fd);
    } catch {
      // already closed by finish()
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
