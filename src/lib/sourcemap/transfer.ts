/**
 * Sends the chunks the server lacks: grouped into requests of at most `chunksPerRequest` chunks
 * and `maxRequestSize` bytes, `concurrency` requests at a time (fewer when that would hold more
 * than MAX_IN_FLIGHT_BYTES in memory), each chunk gzip-compressed when the server accepts it.
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

/** Uploads `missing` from the spool; `onSent` is called with the chunks done so far. */
export async function sendChunks(
  ctx: TrackerContext,
  uploadUrl: string,
  options: ChunkUploadOptions,
  spool: ChunkSpool,
  missing: readonly Chunk[],
  onSent: (done: number) => void,
): Promise<void> {
  const gzip = options.compression.includes("gzip");
  const requestBytes = Math.min(options.maxRequestSize, options.chunksPerRequest * options.chunkSize);
  const batches = batchChunks(missing, options.chunksPerRequest, Math.max(options.maxRequestSize, 1));
  const parallel = Math.max(
    1,
    Math.min(options.concurrency, Math.floor(MAX_IN_FLIGHT_BYTES / Math.max(requestBytes, 1))),
  );
  let done = 0;
  await mapLimit(batches, parallel, async (batch) => {
    const parts = await Promise.all(
      batch.map(async (c) => {
        const raw = await spool.read(c);
        // Level 1: the zip entries are deflated already; gzip here is what the server asked for, cheaply.
        return {
          sha1: c.sha1,
          bytes: gzip ? Bun.gzipSync(raw as Uint8Array<ArrayBuffer>, { level: 1 }) : raw,
          gzip,
        };
      }),
    );
    await postChunks(ctx, uploadUrl, parts);
    done += batch.length;
    onSent(done);
  });
}
