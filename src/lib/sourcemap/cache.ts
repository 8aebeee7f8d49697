/**
 * Remembers, per service and organization, the bundle a set of inputs produced: a fingerprint of
 * the inputs (paths, sizes, mtimes, options) → the bundle's checksum and chunk checksums. A
 * re-upload of unchanged files then needs one assemble request and no rebuild. Kept in the `meta`
 * table under `sourcemap-bundle:<org>@<base URL>:<fingerprint>` (best effort, like every cache).
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { useCache } from "../db/access.ts";
import { readMeta, writeMeta } from "../db/meta.ts";
import type { BundleOptions, BundledFile } from "./bundle.ts";
import type { FoundFile } from "./walk.ts";

/** Bump when the bundle's bytes would change for the same input (a new format or writer). */
const FORMAT = 2;

/** What is remembered of a built bundle. */
export const CachedBundle = v.object({
  checksum: v.pipe(v.string(), v.regex(/^[0-9a-f]{40}$/)),
  chunks: v.array(v.pipe(v.string(), v.regex(/^[0-9a-f]{40}$/))),
  chunkSize: v.number(),
  size: v.number(),
  files: v.array(
    v.object({
      path: v.string(),
      url: v.string(),
      type: v.picklist(["minified_source", "source_map"]),
      debugId: v.optional(v.string()),
      size: v.number(),
    }),
  ),
});
/** A remembered bundle. */
export type CachedBundle = v.InferOutput<typeof CachedBundle> & { files: BundledFile[] };

/** The fingerprint of an upload's inputs: any change of a file's path, size or mtime, or of an option, changes it. */
export function inputFingerprint(files: readonly FoundFile[], opts: BundleOptions): string {
  const h = new Bun.CryptoHasher("sha1");
  h.update(JSON.stringify({ FORMAT, ...opts, projects: [...opts.projects].sort() }));
  for (const f of files) h.update(`\n${f.abs}\0${f.rel}\0${f.size}\0${f.mtimeMs}`);
  return h.digest("hex");
}

function key(ctx: TrackerContext, org: string, fingerprint: string): string {
  return `sourcemap-bundle:${org}@${ctx.settings.baseUrl}:${fingerprint}`;
}

/** The bundle remembered for this fingerprint, if any (a damaged entry counts as none). */
export function readCachedBundle(
  ctx: TrackerContext,
  org: string,
  fingerprint: string,
): CachedBundle | undefined {
  const raw = useCache(ctx, (db) => readMeta(db, key(ctx, org, fingerprint)), undefined);
  if (raw === undefined) return undefined;
  try {
    const r = v.safeParse(CachedBundle, JSON.parse(raw));
    return r.success ? (r.output as CachedBundle) : undefined;
  } catch {
    return undefined;
  }
}

/** Remembers a bundle the server has all chunks of. */
export function writeCachedBundle(
  ctx: TrackerContext,
  org: string,
  fingerprint: string,
  b: CachedBundle,
): void {
  useCache(ctx, (db) => writeMeta(db, key(ctx, org, fingerprint), JSON.stringify(b)), undefined, true);
}
