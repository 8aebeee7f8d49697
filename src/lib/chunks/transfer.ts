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
 * Chunks per request: within the server's limits, and small enough that `concurrency` requests fit
 * in MAX_IN_FLIGHT_BYTES (more requests at once beat fewer, larger ones over a slow link).
 */
export function chunksPerBatch(options: ChunkUploadOptions): number {
  const bySize = Math.floor(options.maxRequestSize / options.chunkSize);
  const byMemory = Math.floor(MAX_IN_FLIGHT_BYTES / (options.concurrency * options.chunkSize));
  return Math.max(1, Math.min(options.chunksPerRequest, bySize, byMemory));
}

/** How sendChunks reads and encodes chunks. */
export interface SendOptions<T extends Chunk> {
  /** The bytes of one chunk (read when its request is built, never earlier). */
  read: (c: T) => Promise<Uint8Array>;
  /**
   * Gzip each part (field `file_gzip`) when the server lists gzip in `compression`. Off for
   * artifact bundles: their zip entries are deflated already, so gzip would cost a second pass over
   * every byte for a percent or two. On for debug files, which compress well.
   */
  gzip: boolean;
  /** Called with the number of chunks sent so far. */
  onSent?: (done: number) => void;
}

/** Uploads `missing` to `uploadUrl` (already checked to be trusted with the token). */
export async function sendChunks<T extends Chunk>(
  ctx: TrackerContext,
  uploadUrl: string,
  options: ChunkUploadOptions,
  missing: readonly T[],
  how: SendOptions<T>,
): Promise<void> {
  const batches = batchChunks(missing, chunksPerBatch(options), Math.max(options.maxRequestSize, 1));
  const requestBytes = Math.min(options.maxRequestSize, chunksPerBatch(options) * options.chunkSize);
  const parallel = Math.max(
    1,
    Math.min(options.concurrency, Math.floor(MAX_IN_FLIGHT_BYTES / Math.max(requestBytes, 1))),
  );
  const gzip = how.gzip && options.compression.includes("gzip");
  let done = 0;
  await mapLimit(batches, parallel, async (batch) => {
    const parts = await Promise.all(
      batch.map(async (c) => {
        const raw = await how.read(c);
        return {
          sha1: c.sha1,
          bytes: gzip ? Bun.gzipSync(raw as Uint8Array<ArrayBuffer>, { level: 1 }) : raw,
          gzip,
        };
      }),
    );
    await postChunks(ctx, uploadUrl, parts);
    done += batch.length;
    how.onSent?.(done);
  });
}
