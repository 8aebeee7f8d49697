/**
 * Remembers what hashing a debug file produced, so an unchanged re-upload reads no file and sends
 * one assemble request: per file range (path, device, inode, size, mtime, offset, length, chunk
 * size) its checksum and chunk checksums, and per organization the last chunk size the service
 * named. Kept in the `meta` table (best effort, like every cache: a damaged entry counts as none).
 */
import { statSync } from "node:fs";
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { useCache } from "../db/access.ts";
import { readMeta, writeMeta } from "../db/meta.ts";

const Sha1 = v.pipe(v.string(), v.regex(/^[0-9a-f]{40}$/));
const Remembered = v.object({ checksum: Sha1, chunks: v.array(Sha1), sizes: v.array(v.number()) });
/** The hash of one file range: checksum, and each chunk's sha1 and size. */
export type RememberedHash = v.InferOutput<typeof Remembered>;

/** The cache key of a file range, or undefined when the file cannot be stat'ed. */
export function rangeKey(path: string, offset: number, size: number, chunkSize: number): string | undefined {
  try {
    const s = statSync(path);
    return `dif-hash:${path}\0${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${offset}:${size}:${chunkSize}`;
  } catch {
    return undefined;
  }
}

/** The remembered hashes of these keys (missing or damaged ones are left out). */
export function readHashes(ctx: TrackerContext, keys: readonly string[]): Map<string, RememberedHash> {
  return useCache(
    ctx,
    (db) => {
      const out = new Map<string, RememberedHash>();
      for (const k of keys) {
        const raw = readMeta(db, k);
        if (raw === undefined) continue;
        try {
          const r = v.safeParse(Remembered, JSON.parse(raw));
          if (r.success) out.set(k, r.output);
        } catch {
          // a damaged entry is hashed again
        }
      }
      return out;
    },
    new Map(),
  );
}

/** Remembers hashes (one transaction). */
export function writeHashes(ctx: TrackerContext, entries: ReadonlyMap<string, RememberedHash>): void {
  if (entries.size === 0) return;
  useCache(
    ctx,
    (db) =>
      db.transaction(() => {
        for (const [k, h] of entries) writeMeta(db, k, JSON.stringify(h));
      })(),
    undefined,
    true,
  );
}

function sizeKey(ctx: TrackerContext, org: string): string {
  return `dif-chunk-size:${org}@${ctx.settings.baseUrl}`;
}

/** The chunk size the service named for this organization last time, if any. */
export function readChunkSize(ctx: TrackerContext, org: string): number | undefined {
  const raw = useCache(ctx, (db) => readMeta(db, sizeKey(ctx, org)), undefined);
  const n = Number(raw);
  return raw !== undefined && Number.isInteger(n) && n >= 1024 ? n : undefined;
}

/** Remembers the organization's chunk size. */
export function writeChunkSize(ctx: TrackerContext, org: string, chunkSize: number): void {
  useCache(ctx, (db) => writeMeta(db, sizeKey(ctx, org), String(chunkSize)), undefined, true);
}
