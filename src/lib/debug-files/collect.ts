/**
 * A walk with its temp directory (for inflated zip members), removed when the work on the found
 * files is done, and the upload item of a found object.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DifUploadItem } from "./hash-items.ts";
import { type FoundDif, type WalkNote, walkDifs } from "./walk.ts";

/** Walks `paths`, runs `work` on what was found (with the temp directory, for files made from them), then removes the walk's temp files. */
export async function withFoundDifs<T>(
  paths: readonly string[],
  opts: { cwd: string; zips?: boolean },
  work: (difs: FoundDif[], notes: WalkNote[], tempDir: string) => Promise<T>,
): Promise<T> {
  const tempDir = mkdtempSync(join(tmpdir(), "tracker-difs-"));
  try {
    const { difs, notes } = await walkDifs(paths, { ...opts, tempDir });
    return await work(difs, notes, tempDir);
  } finally {
    rmSync(tempDir, { recursive: true, force: true });
  }
}

/** The upload item of a found object (its own byte range: a fat Mach-O's slice goes alone). */
export function uploadItemOf(f: FoundDif): DifUploadItem {
  return {
    path: f.display,
    name: f.name,
    debugId: f.object.debugId,
    format: f.object.format,
    arch: f.object.arch,
    features: f.object.features,
    source: f.source,
    offset: f.object.offset,
    size: f.object.size,
  };
}
