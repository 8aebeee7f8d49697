/**
 * Sends the chunks the server lacks: grouped into requests of at most `chunksPerRequest` chunks
 * and `maxRequestSize` bytes, `concurrency` requests at a time (fewer when that would hold more
 * than MAX_IN_FLIGHT_BYTES in memory), each chunk read from its source only when its request goes.
 */
import type { TrackerContext } from "../../context.ts";
import { type ChunkUploadOptions, postChunks } from "../api/chunk-upload.ts";
import { mapLimit } from "../concurrency.ts";
import type { Chunk } from "./types.ts";

/** Most chunk bytes read into memory at once across parallel requests. */
export const MAX_IN_FLIGHT_BYTES = 64 * 1024 * 1024;

/** Groups chunks into requests within the server's limits (every chunk fits, a chunk alone may fill one). */
export function batchChunks<T extends Chunk>(
  chunks: readonly T[],
  perRequest: number,
  maxBytes: number,
): T[][] {
  const batches: T[][] = [];
  let cur: T[] = [];
  let bytes = 0;
  for (const c of chunks) {
    if (cur.length > 0 && (cur.length >= perRequest || bytes + c.size > maxBytes)) {
      batches.push(cur);
      cur = [];
      bytes = 0;
    }
    cur.push(c);
    bytes += c.size;
  }
  if (cur.length > 0) batches.push(cur);
  return batches;
}

/**
 * Bytes per request: within the server's `maxRequestSize`, and small enough that `concurrency`
 * requests fit in MAX_IN_FLIGHT_BYTES (more requests at once beat fewer, larger ones over a slow
 * link), but never less than one chunk. Small chunks (small files) share a request up to
 * `chunksPerRequest`.
 */
export function bytesPerBatch(options: ChunkUploadOptions, maxInFlight = MAX_IN_FLIGHT_BYTES): number {
  const byMemory = Math.floor(maxInFlight / options.concurrency);
  return Math.max(options.chunkSize, Math.min(options.maxRequestSize, byMemory));
}

/** How sendChunks reads and encodes chunks. */
export interface SendOptions<T extends Chunk> {
  /** The bytes of one chunk (read when its request is built, never earlier). */
  read: (c: T) => Promise<Uint8Array>;
  /** The chunk gzipped, when the source can compress while it reads (else `read` + gzip). */
  readGzip?: (c: T) => Promise<Uint8Array>;
  /**
   * Gzip each part (field `file_gzip`) when the server lists gzip in `compression`. Off for
   * artifact bundles: their zip entries are deflated already, so gzip would cost a second pass over
   * every byte for a percent or two. On for debug files, which compress well.
   */
  gzip: boolean;
  /** Called with the number of chunks sent so far. */
  onSent?: (done: number) => void;
  /** Most chunk bytes in memory at once (default MAX_IN_FLIGHT_BYTES). */
  maxInFlightBytes?: number;
  /**
   * Run the collector after each request. Chunk buffers are memory the collector barely feels:
   * without this a 1 GB upload keeps a few hundred MB of finished requests resident (measured:
   * 227 → 133 MiB peak for 1 GB of debug files at 24 MiB in flight, for ~1 % more time).
   */
  collectAfterEach?: boolean;
}

/** Uploads `missing` to `uploadUrl` (already checked to be trusted with the token). */
export async function sendChunks<T extends Chunk>(
  ctx: TrackerContext,
  uploadUrl: string,
  options: ChunkUploadOptions,
  missing: readonly T[],
  how: SendOptions<T>,
): Promise<void> {
  const budget = how.maxInFlightBytes ?? MAX_IN_FLIGHT_BYTES;
  const requestBytes = bytesPerBatch(options, budget);
  const batches = batchChunks(missing, options.chunksPerRequest, requestBytes);
  const parallel = Math.max(1, Math.min(options.concurrency, Math.floor(budget / requestBytes)));
  const gzip = how.gzip && options.compression.includes("gzip");
  let done = 0;
  await mapLimit(batches, parallel, async (batch) => {
    const parts = await Promise.all(
      batch.map(async (c) => {
        if (gzip && how.readGzip) return { sha1: c.sha1, bytes: await how.readGzip(c), gzip };
        const raw = await how.read(c);
        return {
          sha1: c.sha1,
          bytes: gzip ? Bun.gzipSync(raw as Uint8Array<ArrayBuffer>, { level: 1 }) : raw,
          gzip,
        };
      }),
    );
    await postChunks(ctx, uploadUrl, parts);
    parts.length = 0;
    if (how.collectAfterEach) Bun.gc(true);
    done += batch.length;
    how.onSent?.(done);
  });
}
