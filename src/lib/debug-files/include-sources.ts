/**
 * `debug-files upload --include-sources`: a source bundle for each selected ELF / Mach-O object
 * with debug information (one per debug ID), built in the walk's temp directory (removed when the
 * upload is done) and uploaded beside the object as its own file: format `sourcebundle`, name
 * `<name>.src.zip`, the object's debug ID (API.md §21.7).
 */
import { mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { bundleFoundDif } from "./bundle-sources.ts";
import type { DifUploadItem } from "./hash-items.ts";
import type { FoundDif, WalkNote } from "./walk.ts";

/** The upload items of the bundles of `selected` (written under `tempDir`), and notes for what was left out. */
export async function buildSourceBundles(
  selected: readonly FoundDif[],
  tempDir: string,
): Promise<{ items: DifUploadItem[]; notes: WalkNote[] }> {
  const dir = join(tempDir, "source-bundles");
  mkdirSync(dir, { recursive: true });
  const items: DifUploadItem[] = [];
  const notes: WalkNote[] = [];
  const seen = new Set<string>();
  for (const [i, f] of selected.entries()) {
    const { object } = f;
    if (object.format !== "elf" && object.format !== "macho") continue;
    if (!object.features.includes("debug") || !object.debugId || seen.has(object.debugId)) continue;
    seen.add(object.debugId);
    const built = await bundleFoundDif(f, dir, i);
    notes.push(...built.notes);
    if (!built.path) continue;
    items.push({
      path: `${f.display}.src.zip`,
      name: `${f.name}.src.zip`,
      debugId: object.debugId,
      format: "sourcebundle",
      arch: object.arch,
      features: ["sources"],
      source: built.path,
      offset: 0,
      size: statSync(built.path).size,
      transient: true,
    });
  }
  return { items, notes };
}
