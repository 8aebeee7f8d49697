/**
 * Sends the chunks the server lacks: grouped into requests of at most `chunksPerRequest` chunks
 * and `maxRequestSize` bytes, `concurrency` requests at a time (fewer when that would hold more
 * than MAX_IN_FLIGHT_BYTES in memory), each chunk as it is (see sendChunks).
 */
import type { TrackerContext } from "../../context.ts";
import { type ChunkUploadOptions, postChunks } from "../api/artifacts.ts";
import { mapLimit } from "../concurrency.ts";
import type { Chunk, ChunkSpool } from "./spool.ts";

/** Most chunk bytes read into memory at once across parallel requests. */
export const MAX_IN_FLIGHT_BYTES = 64 * 1024 * 1024;

/** Groups chunks into requests within the server's limits (every chunk fits, a chunk alone may fill one). */
export function batchChunks(chunks: readonly Chunk[], perRequest: number, maxBytes: number): Chunk[][] {
  const batches: Chunk[][] = [];
  let cur: Chunk[] = [];
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

/**
 * Uploads `missing` from the spool; `onSent` is called with the chunks done so far. Parts go as
 * `file`, uncompressed: the zip's entries are deflated already, so gzip would cost a second pass
 * over every byte (on both ends) for a percent or two (the server always accepts `file`;
 * `compression` lists what it accepts besides).
 */
export async function sendChunks(
  ctx: TrackerContext,
  uploadUrl: string,
  options: ChunkUploadOptions,
  spool: ChunkSpool,
  missing: readonly Chunk[],
  onSent: (done: number) => void,
): Promise<void> {
  const batches = batchChunks(missing, chunksPerBatch(options), Math.max(options.maxRequestSize, 1));
  const requestBytes = Math.min(options.maxRequestSize, chunksPerBatch(options) * options.chunkSize);
  const parallel = Math.max(
    1,
    Math.min(options.concurrency, Math.floor(MAX_IN_FLIGHT_BYTES / Math.max(requestBytes, 1))),
  );
  let done = 0;
  await mapLimit(batches, parallel, async (batch) => {
    const parts = await Promise.all(
      batch.map(async (c) => ({ sha1: c.sha1, bytes: await spool.read(c), gzip: false })),
    );
    await postChunks(ctx, uploadUrl, parts);
    done += batch.length;
    onSent(done);
  });
}
