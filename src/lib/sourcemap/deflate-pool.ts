/**
 * Deflates zip entries off the main thread, so reading, parsing and hashing the next files overlap
 * with compressing the last ones. The workers run a copy of compressEntry()'s rule (same library,
 * same level, same sample test), so an entry's bytes do not depend on where it was compressed. A
 * worker is created from a string (no separate file: it works the same from source and from the
 * compiled binary); when one cannot be started, everything is compressed inline.
 */
import { availableParallelism } from "node:os";
import { type CompressedEntry, compressEntry, SAMPLE } from "./zip.ts";

/** Entries smaller than this are compressed inline (a round trip to a worker costs more). */
const INLINE_BELOW = 64 * 1024;

const WORKER_SOURCE = `
const deflate = (d) => Bun.deflateSync(d, { level: 1, library: "libdeflate" });
self.onmessage = (e) => {
  const { id, data, sample } = e.data;
  let method = 0;
  let body = data;
  if (!(data.length > sample * 2 && deflate(data.subarray(0, sample)).length > sample * 0.9)) {
    const deflated = deflate(data);
    if (deflated.length < data.length) {
      method = 8;
      body = deflated;
    }
  }
  self.postMessage({ id, method, body, data }, body === data ? [data.buffer] : [data.buffer, body.buffer]);
};
`;

interface Reply {
  id: number;
  method: number;
  body: Uint8Array;
  data: Uint8Array;
}

/** A few workers that deflate entries; `compress` hands back the data too (it was moved). */
export class DeflatePool {
  private readonly workers: Worker[] = [];
  private readonly waiting = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  private next = 0;

  /** A pool of `size` workers (none: inline). */
  constructor(size: number) {
    if (size <= 0) return;
    try {
      const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "application/javascript" }));
      for (let i = 0; i < size; i++) {
        const w = new Worker(url);
        w.onmessage = (e: MessageEvent<Reply>) => {
          const done = this.waiting.get(e.data.id);
          this.waiting.delete(e.data.id);
          done?.resolve(e.data);
        };
        // A worker that fails fails the build (never a hang): its entries' data went with it.
        w.onerror = (e) => {
          for (const p of this.waiting.values())
            p.reject(new Error(`compressing the bundle failed: ${e.message}`));
          this.waiting.clear();
        };
        this.workers.push(w);
      }
    } catch {
      this.close();
    }
  }

  /** Workers worth starting for `bytes` of input: one per spare core (at most 3), none for small uploads. */
  static sizeFor(bytes: number): number {
    if (bytes < 16 * 1024 * 1024) return 0;
    return Math.max(1, Math.min(3, availableParallelism() - 1));
  }

  /** The entry's method and body, and its data (a copy when the original could not be moved). */
  async compress(data: Uint8Array): Promise<CompressedEntry & { data: Uint8Array }> {
    if (this.workers.length === 0 || data.length < INLINE_BELOW) return { ...compressEntry(data), data };
    // Only a buffer of its own can move to the worker (small Buffers share a pool).
    const own = data.byteOffset === 0 && data.byteLength === data.buffer.byteLength ? data : data.slice();
    const id = this.next++;
    const worker = this.workers[id % this.workers.length] as Worker;
    const reply = await new Promise<Reply>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, data: own, sample: SAMPLE }, [own.buffer as ArrayBuffer]);
    });
    return { method: reply.method, body: reply.body, data: reply.data };
  }

  /** Stops the workers. */
  close(): void {
    for (const w of this.workers) w.terminate();
    this.workers.length = 0;
  }
}
