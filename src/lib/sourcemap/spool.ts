/**
 * Cuts a byte stream into chunks of the server's `chunkSize` while it is produced: each chunk is
 * hashed (SHA-1) and appended to a temp file, and the whole stream is hashed too (the bundle's
 * checksum). Memory stays at one chunk; the chunks the server lacks are read back by offset.
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** One chunk of the spooled stream. */
export interface Chunk {
  sha1: string;
  offset: number;
  size: number;
}

/** A chunked, hashed copy of a byte stream in a temp file. */
export class ChunkSpool {
  readonly chunks: Chunk[] = [];
  readonly path: string;
  private readonly dir: string;
  private readonly fd: number;
  private readonly buf: Uint8Array;
  private fill = 0;
  private written = 0;
  private readonly whole = new Bun.CryptoHasher("sha1");
  private checksumHex: string | undefined;

  constructor(readonly chunkSize: number) {
    this.dir = mkdtempSync(join(tmpdir(), "tracker-bundle-"));
    this.path = join(this.dir, "bundle.zip");
    this.fd = openSync(this.path, "w", 0o600);
    this.buf = new Uint8Array(chunkSize);
  }

  /** Appends bytes to the stream. */
  write(bytes: Uint8Array): void {
    let at = 0;
    while (at < bytes.length) {
      const n = Math.min(bytes.length - at, this.chunkSize - this.fill);
      this.buf.set(bytes.subarray(at, at + n), this.fill);
      this.fill += n;
      at += n;
      if (this.fill === this.chunkSize) this.flush();
    }
  }

  private flush(): void {
    if (this.fill === 0) return;
    const data = this.buf.subarray(0, this.fill);
    const h = new Bun.CryptoHasher("sha1");
    h.update(data);
    this.whole.update(data);
    writeSync(this.fd, data);
    this.chunks.push({ sha1: h.digest("hex"), offset: this.written, size: this.fill });
    this.written += this.fill;
    this.fill = 0;
  }

  /** Ends the stream; returns the SHA-1 of all of it. */
  finish(): string {
    this.flush();
    closeSync(this.fd);
    this.checksumHex = this.whole.digest("hex");
    return this.checksumHex;
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
