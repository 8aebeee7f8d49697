/**
 * The first half of a debug-file upload: each item's byte range cut into chunks and hashed while
 * it streams (remembered for unchanged files, so a re-upload reads nothing), and the difs/assemble
 * body those hashes make. Shared by the upload and its `--dry-run`.
 */
import type { TrackerContext } from "../../context.ts";
import type { DifAssembleFile } from "../api/difs.ts";
import { hashFileRange } from "../chunk/hash.ts";
import type { FileChunk } from "../chunk/types.ts";
import { mapLimit } from "../concurrency.ts";
import { rangeKey, readHashes, type RememberedHash, writeHashes } from "./hash-cache.ts";

/** One file (or slice of a file) to upload. */
export interface DifUploadItem {
  /** The path shown to the user. */
  path: string;
  /** The name the service gets. */
  name: string;
  debugId: string | null;
  format: string;
  arch: string;
  features: readonly string[];
  /** Where the bytes are: a file and a range of it. */
  source: string;
  offset: number;
  size: number;
  /** A temp file made for this run (a source bundle): its hashes are not remembered. */
  transient?: boolean;
}

/** Bytes hashed between collector nudges (read buffers are native memory the collector does not feel). */
const GC_EVERY_BYTES = 64 * 1024 * 1024;

/** Files hashed in parallel (I/O bound; the hasher is native). */
const HASH_PARALLEL = 4;

/** An item with its checksum and chunks. */
export interface Hashed {
  item: DifUploadItem;
  checksum: string;
  chunks: FileChunk[];
}

/** Hashes each item's range (remembered hashes of unchanged files are reused; new ones remembered). */
export async function hashItems(
  ctx: TrackerContext,
  items: readonly DifUploadItem[],
  chunkSize: number,
): Promise<Hashed[]> {
  const keys = items.map((i) => (i.transient ? undefined : rangeKey(i.source, i.offset, i.size, chunkSize)));
  const known = readHashes(
    ctx,
    keys.filter((k): k is string => k !== undefined),
  );
  const fresh = new Map<string, RememberedHash>();
  let hashedBytes = 0;
  const out = await mapLimit(items, HASH_PARALLEL, async (item, i) => {
    const key = keys[i];
    const hit = key ? known.get(key) : undefined;
    if (hit) {
      let at = item.offset;
      const chunks = hit.chunks.map((sha1, n) => {
        const size = hit.sizes[n] ?? 0;
        const c = { path: item.source, sha1, offset: at, size };
        at += size;
        return c;
      });
      return { item, checksum: hit.checksum, chunks };
    }
    const h = await hashFileRange(item.source, item.offset, item.size, chunkSize);
    hashedBytes += item.size;
    if (hashedBytes > GC_EVERY_BYTES) {
      hashedBytes = 0;
      Bun.gc(false);
    }
    if (key)
      fresh.set(key, {
        checksum: h.checksum,
        chunks: h.chunks.map((c) => c.sha1),
        sizes: h.chunks.map((c) => c.size),
      });
    return { item, checksum: h.checksum, chunks: h.chunks };
  });
  writeHashes(ctx, fresh);
  return out;
}

/** The difs/assemble body for these files: checksum → name, debug ID (when known), chunk checksums. */
export function assembleBody(list: readonly Hashed[]): Record<string, DifAssembleFile> {
  const body: Record<string, DifAssembleFile> = {};
  for (const h of list)
    body[h.checksum] = {
      name: h.item.name,
      ...(h.item.debugId ? { debug_id: h.item.debugId } : {}),
      chunks: h.chunks.map((c) => c.sha1),
    };
  return body;
}
