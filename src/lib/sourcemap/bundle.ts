/**
 * The artifact bundle (API.md §20.3): a zip of the files under `files/…` plus `manifest.json`
 * (each file's URL, type and `debug-id`/`sourcemap` headers), written straight into a ChunkSpool.
 * Minified files go first (their debug IDs and map references are then known when their maps
 * follow), each group sorted by URL, the manifest last: identical input gives identical bytes.
 * Memory: the files waiting for compression (at most MAX_PENDING_BYTES, or one large file).
 */
import { basename } from "node:path";
import { containedPath } from "../fs/contain.ts";
import { readRegularFile } from "../fs/regular.ts";
import { debugIdFromBytes, jsDebugId, mapDebugId, sourceMappingUrl } from "./debug-id.ts";
import { BadSourceMap, parseSourceMap } from "./inject-text.ts";
import type { ChunkSpool } from "./spool.ts";
import { mapInsideTree, mapPathFor, type FoundFile, type SkipNote } from "./walk.ts";
import { ZipWriter } from "./zip.ts";
import { DeflatePool } from "./deflate-pool.ts";

/** Options of the bundle. */
export interface BundleOptions {
  org: string;
  projects: readonly string[];
  release?: string;
  dist?: string;
  /** Prefix of every URL (default `~/`). */
  urlPrefix: string;
  /** Removed from the start of each path before the prefix is added. */
  stripPrefix?: string;
  /** Appended to every URL (sentry-cli's `--url-suffix`, e.g. `?v=3`). */
  urlSuffix?: string;
  /** Validate maps and add a missing debug ID from their JS file (default); false uploads bytes as they are. */
  rewrite: boolean;
  /** Files larger than this are left out with a note (the server's `maxFileSize`). */
  maxFileSize: number;
}

/** One file in the bundle. */
export interface BundledFile {
  path: string;
  url: string;
  type: "minified_source" | "source_map";
  debugId?: string;
  size: number;
}

/** The bundle as spooled. */
export interface BuiltBundle {
  files: BundledFile[];
  skipped: SkipNote[];
  checksum: string;
  size: number;
}

/** The URL of a path below its root: prefix + path without the strip prefix + suffix. */
export function fileUrl(rel: string, urlPrefix: string, stripPrefix?: string, urlSuffix = ""): string {
  let path = rel;
  if (stripPrefix) {
    const strip = stripPrefix.replace(/^\.\//, "");
    if (path.startsWith(strip)) path = path.slice(strip.length);
  }
  path = path.replace(/^\/+/, "");
  const prefix = urlPrefix === "" || urlPrefix.endsWith("/") ? urlPrefix : `${urlPrefix}/`;
  return `${prefix}${path}${urlSuffix}`;
}

/** The zip path of a URL: `files/<scheme>/<host>/<path>`, with `_` for `~` (`~/a.js` → `files/_/_/a.js`). */
export function zipPathOf(url: string): string {
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/]*)\/?(.*)$/i.exec(url);
  if (m) return `files/${m[1]}/${m[2] || "_"}/${m[3]}`;
  return `files/_/_/${url.replace(/^~?\/+/, "")}`;
}

/** Most bytes of read files waiting for their compression (the pipeline's memory bound). */
const MAX_PENDING_BYTES = 64 * 1024 * 1024;

/** Builds the bundle of `files` into `spool`; entries are compressed by a DeflatePool while the next files are read. */
export async function buildBundle(
  files: readonly FoundFile[],
  opts: BundleOptions,
  spool: ChunkSpool,
  workers = DeflatePool.sizeFor(files.reduce((n, f) => n + f.size, 0)),
): Promise<BuiltBundle> {
  const pool = new DeflatePool(workers);
  try {
    return await build(files, opts, spool, pool);
  } finally {
    pool.close();
  }
}

async function build(
  files: readonly FoundFile[],
  opts: BundleOptions,
  spool: ChunkSpool,
  pool: DeflatePool,
): Promise<BuiltBundle> {
  const zip = new ZipWriter((b) => spool.write(b));
  // Entries in bundle order, each compressing; written to the zip first come, first written.
  const queue: { path: string; work: ReturnType<DeflatePool["compress"]> }[] = [];
  let pendingBytes = 0;
  const writeOldest = async () => {
    const head = queue.shift();
    if (!head) return;
    const done = await head.work;
    zip.addEntry(head.path, done.data, done);
    pendingBytes -= done.data.length;
  };
  const skipped: SkipNote[] = [];
  const bundled: BundledFile[] = [];
  const manifest: Record<string, { type: string; url: string; headers: Record<string, string> }> = {};
  const urls = new Set<string>();
  const idOfMap = new Map<string, string>();
  const walked = new Set(files.map((f) => f.abs));
  const withUrl = files
    .map((f) => ({ f, url: fileUrl(f.rel, opts.urlPrefix, opts.stripPrefix, opts.urlSuffix) }))
    .sort((a, b) => {
      const ma = a.f.rel.endsWith(".map") ? 1 : 0;
      const mb = b.f.rel.endsWith(".map") ? 1 : 0;
      return ma - mb || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0);
    });
  for (const { f, url } of withUrl) {
    if (urls.has(url)) {
      skipped.push({ path: f.abs, reason: `another file already has the URL ${url}` });
      continue;
    }
    if (f.size > opts.maxFileSize) {
      skipped.push({
        path: f.rel,
        reason: `${f.size} bytes is over the server's maxFileSize (${opts.maxFileSize})`,
      });
      continue;
    }
    // Read again through the rules, not trusting the walk: still inside the tree, a regular file, at most the cap.
    const inside = containedPath(f.realRoot, f.abs);
    if (!inside.ok) {
      skipped.push({ path: f.rel, reason: inside.reason });
      continue;
    }
    const read = readRegularFile(inside.real, opts.maxFileSize);
    if (!read.ok) {
      const reason = read.why === "too-large" ? `${read.note} (the server's maxFileSize)` : read.note;
      skipped.push({ path: f.rel, reason });
      continue;
    }
    let data: Uint8Array = read.data;
    const headers: Record<string, string> = {};
    const isMap = f.rel.endsWith(".map");
    if (isMap) {
      let id = idOfMap.get(f.abs);
      if (opts.rewrite) {
        let map: Record<string, unknown>;
        try {
          map = parseSourceMap(new TextDecoder().decode(data));
        } catch (err) {
          if (!(err instanceof BadSourceMap)) throw err;
          skipped.push({ path: f.rel, reason: `corrupt source map: ${err.message}` });
          continue;
        }
        const own = mapDebugId(map);
        if (!own && id) {
          map.debug_id = id;
          map.debugId = id;
          data = new TextEncoder().encode(JSON.stringify(map));
        }
        id = own ?? id;
      }
      if (id) headers["debug-id"] = id;
    } else {
      const text = new TextDecoder().decode(data);
      const id = jsDebugId(text);
      const ref = sourceMappingUrl(text);
      const mapAbs = mapPathFor(f.abs, ref);
      if (ref !== undefined && mapAbs !== undefined && !mapInsideTree(f, mapAbs)) {
        skipped.push({
          path: f.rel,
          reason: `its sourceMappingURL points outside the tree (${ref}); reference dropped`,
        });
      } else if (ref !== undefined && !ref.startsWith("data:")) {
        headers.sourcemap = ref;
      } else if (ref === undefined && mapAbs !== undefined && walked.has(mapAbs)) {
        // A map beside the file (`vendor.mjs.map`) without a sourceMappingURL comment: the service
        // finds it only through this header.
        headers.sourcemap = basename(mapAbs);
      }
      if (id) {
        headers["debug-id"] = id;
        if (mapAbs) idOfMap.set(mapAbs, id);
      }
    }
    const type = isMap ? "source_map" : "minified_source";
    const path = zipPathOf(url);
    const size = data.length;
    const work = pool.compress(data); // `data` may move to a worker: not used below
    work.catch(() => {}); // awaited in order by writeOldest; a failure surfaces there
    queue.push({ path, work });
    pendingBytes += size;
    while (pendingBytes > MAX_PENDING_BYTES) await writeOldest();
    urls.add(url);
    manifest[path] = { type, url, headers };
    bundled.push({
      path: f.rel,
      url,
      type,
      size,
      ...(headers["debug-id"] ? { debugId: headers["debug-id"] } : {}),
    });
  }
  while (queue.length > 0) await writeOldest();
  const entryList = Object.entries(manifest).map(
    ([p, e]) => `${p}\0${e.url}\0${e.headers["debug-id"] ?? ""}`,
  );
  const doc = {
    files: manifest,
    // The bundle's own id (its later bundleId): derived from its entries, so it is stable too.
    debug_id: debugIdFromBytes(`${entryList.join("\n")}\n${spool.size}`),
    org: opts.org,
    ...(opts.projects.length === 1 ? { project: opts.projects[0] } : {}),
    ...(opts.release ? { release: opts.release } : {}),
    ...(opts.dist ? { dist: opts.dist } : {}),
  };
  zip.addFile("manifest.json", new TextEncoder().encode(JSON.stringify(doc)));
  zip.finish();
  const checksum = spool.finish();
  return { files: bundled, skipped, checksum, size: spool.size };
}
