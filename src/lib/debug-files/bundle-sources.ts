/**
 * Building the source bundles of named object files (`debug-files bundle-sources`) and of the
 * objects an upload found (`debug-files upload --include-sources`): one bundle per ELF / Mach-O
 * object with DWARF line tables, `<name>.src.zip` (`<name>.<n>.src.zip` for slice n > 0 of a fat
 * file) next to the file or in the output directory (a dSYM's DWARF file: next to the `.dSYM`).
 */
import { existsSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { ValidationError } from "../errors.ts";
import { DIF_FORMAT_NAMES } from "./check.ts";
import { detectDif, lazyFileWindow, openFileWindow } from "./detect.ts";
import { dwarfNote, objectSources, type SourceBundleResult, writeSourceBundle } from "./source-bundle.ts";
import { DifParseError, type DifObject, type FileWindow } from "./types.ts";
import type { FoundDif, WalkNote } from "./walk.ts";

/** One bundle built (or, with dryRun, planned). */
export interface BuiltBundle extends SourceBundleResult {
  /** The object file, as the user named it. */
  input: string;
  arch: string;
  debugId: string | null;
  /** Where the bundle was (or would be) written; null when no source was readable. */
  output: string | null;
}

/** A `.dSYM` directory stands for its one DWARF file (`Contents/Resources/DWARF/<name>`). */
export function dsymDwarfFile(path: string): string {
  if (!/\.dsym\/?$/i.test(path)) return path;
  const stem = basename(path).replace(/\.dsym\/?$/i, "");
  const inner = join(path, "Contents/Resources/DWARF", stem);
  return existsSync(inner) ? inner : path;
}

/** Where bundles of `file` go by default: beside it, or beside the `.dSYM` holding it. */
function defaultDir(file: string): string {
  const parent = dirname(file);
  const m = /^(.*\.dsym)\/Contents\/Resources\/DWARF$/i.exec(parent);
  return m?.[1] ? dirname(m[1]) : parent;
}

/** A failed write of a bundle as the user's error (a read-only or missing output directory); others rethrown. */
export function writeError(target: string, err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (typeof code !== "string" || err instanceof ValidationError) return err;
  return new ValidationError(`Cannot write ${target} (${code}).`, "output");
}

/** Builds the bundle of one object into `target`; null with a note when it has no DWARF line tables. */
async function bundleObject(
  window: FileWindow,
  object: DifObject,
  objectName: string,
  target: string,
  shown: string,
  dryRun: boolean,
): Promise<SourceBundleResult | WalkNote> {
  if (object.format !== "elf" && object.format !== "macho")
    return { path: shown, reason: `${DIF_FORMAT_NAMES[object.format]} files hold no DWARF sources` };
  let found: Awaited<ReturnType<typeof objectSources>>;
  try {
    found = await objectSources(window, object);
  } catch (err) {
    return dwarfNote(shown, err);
  }
  if (!found || found.sources.length === 0)
    return { path: shown, reason: `no source file names in its debug information (${object.arch})` };
  const result = writeSourceBundle(target, object, objectName, found.sources, dryRun);
  return { ...result, notes: [...found.notes, ...result.notes] };
}

/** The bundles of the named object files (absolute `files`; `shown` as the user wrote them). */
export async function bundleNamedFiles(
  files: readonly { abs: string; shown: string }[],
  opts: { outDir?: string; dryRun: boolean },
): Promise<{ bundles: BuiltBundle[]; notes: WalkNote[] }> {
  const bundles: BuiltBundle[] = [];
  const notes: WalkNote[] = [];
  for (const { abs, shown } of files) {
    const window = await openFileWindow(abs);
    try {
      let objects: DifObject[] | null;
      try {
        objects = await detectDif(window, abs);
      } catch (err) {
        if (err instanceof DifParseError) throw new ValidationError(`${shown}: ${err.message}.`, "file");
        throw err;
      }
      if (!objects) throw new ValidationError(`${shown} is not a debug information file.`, "file");
      const name = basename(abs);
      for (const [i, object] of objects.entries()) {
        const target = join(opts.outDir ?? defaultDir(abs), `${name}${i === 0 ? "" : `.${i}`}.src.zip`);
        const r = await bundleObject(window, object, name, target, shown, opts.dryRun).catch((err) => {
          throw writeError(target, err);
        });
        if (!("files" in r)) notes.push(r);
        else {
          notes.push(...r.notes);
          const output = r.files.length > 0 ? target : null;
          if (!output) notes.push({ path: shown, reason: `no source file could be read (${object.arch})` });
          bundles.push({ ...r, input: shown, arch: object.arch, debugId: object.debugId, output });
        }
      }
    } finally {
      await window.close();
    }
  }
  return { bundles, notes };
}

/** The bundle of an object an upload found, written into `dir` (`<name>.src.zip`); null with notes when none could be made. */
export async function bundleFoundDif(
  found: FoundDif,
  dir: string,
  index: number,
): Promise<{ path: string | null; notes: WalkNote[] }> {
  const window = lazyFileWindow(found.source, statSync(found.source).size);
  const target = join(dir, `${index}-${found.name}.src.zip`);
  const r = await bundleObject(window, found.object, found.name, target, found.display, false);
  if (!("files" in r)) return { path: null, notes: [r] };
  if (r.files.length > 0) return { path: target, notes: r.notes };
  return {
    path: null,
    notes: [...r.notes, { path: found.display, reason: "no source file could be read: no source bundle" }],
  };
}
