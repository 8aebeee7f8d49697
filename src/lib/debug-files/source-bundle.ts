/**
 * Source bundles of native objects (`debug-files bundle-sources`, `upload --include-sources`;
 * API.md §21.7): the source files an object's DWARF names are read from disk and written, with a
 * manifest (`files` {zip path → {type: "source", path}}, `debug_id`, `code_id`, `arch`,
 * `object_name`), in the format symbolic writes: `SYSB` + u32 LE version 2, then a zip whose
 * offsets count those 8 bytes. Sources may live anywhere on disk, so the rules are: regular files
 * only (no FIFOs, sockets or devices; nothing under /proc), at most MAX_BUNDLED_SOURCE_BYTES each,
 * counted while reading; a missing or unreadable one is a note. The bundle goes to a temp file
 * created exclusively next to the target, is fsynced and renamed into place.
 */
import { closeSync, constants, fsyncSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { ZipWriter } from "../sourcemap/zip.ts";
import { readDwarfSections } from "./dwarf-sections.ts";
import { dwarfSourceFiles } from "./dwarf-lines.ts";
import { DifParseError, type DifObject, type FileWindow } from "./types.ts";
import type { WalkNote } from "./walk.ts";
import { readRegularFile } from "../fs/regular.ts";

/** Largest source file bundled (sentry-cli leaves out sources above 1 MiB too). */
export const MAX_BUNDLED_SOURCE_BYTES = 1024 * 1024;

/** The source bundle header: `SYSB` and version 2 (u32 little-endian). */
const HEADER = new Uint8Array([0x53, 0x59, 0x53, 0x42, 2, 0, 0, 0]);

/** What building one bundle did. */
export interface SourceBundleResult {
  /** The sources written: original path and zip path. */
  files: { path: string; zipPath: string }[];
  /** Sources left out, and why. */
  notes: WalkNote[];
  /** Bytes written; 0 when nothing was (no source could be read: no bundle). */
  size: number;
}

/** symbolic's sanitize_bundle_path: runs of `/`/`\` (after an optional `:`) become `/`, no leading `/`. */
export function bundlePath(path: string): string {
  return `files/${path.replace(/:?[/\\]+/g, "/").replace(/^\//, "")}`;
}

/** Reads one source under the rules above; a string is the reason it was left out. */
function readSource(path: string): Uint8Array | string {
  const read = readRegularFile(path, MAX_BUNDLED_SOURCE_BYTES);
  if (read.ok) return read.data;
  switch (read.why) {
    case "missing":
      return "missing";
    case "pseudo":
      return "under /proc (not read)";
    case "not-regular":
      return "not a regular file (not read)";
    case "too-large":
      return `larger than ${MAX_BUNDLED_SOURCE_BYTES} bytes (left out)`;
    default:
      return read.note;
  }
}

/** The absolute source paths an object's DWARF names, with notes for names that cannot be resolved; null when the object has no DWARF line tables. */
export async function objectSources(
  file: FileWindow,
  object: DifObject,
): Promise<{ sources: string[]; notes: WalkNote[] } | null> {
  const sections = await readDwarfSections(file, object);
  if (!sections?.data.line) return null;
  const { absolute, unresolved } = dwarfSourceFiles(sections);
  return {
    sources: absolute,
    notes: unresolved.map((p) => ({ path: p, reason: "relative path without a compilation directory" })),
  };
}

/**
 * Writes the bundle of `object` (named `objectName` in the manifest) holding the readable
 * `sources` to `target`; writes nothing when none is readable, or with `dryRun` (the sources are
 * still read, so the notes are the same). Throws only on write errors.
 */
export function writeSourceBundle(
  target: string,
  object: DifObject,
  objectName: string,
  sources: readonly string[],
  dryRun = false,
): SourceBundleResult {
  const notes: WalkNote[] = [];
  const files: SourceBundleResult["files"] = [];
  let fd: number | undefined;
  let zip: ZipWriter | undefined;
  const tmp = `${target}.${randomBytes(6).toString("hex")}.tmp`;
  const write = (b: Uint8Array) => {
    let at = 0;
    while (at < b.length) at += writeSync(fd as number, b, at, b.length - at);
  };
  try {
    const manifest: Record<string, { type: "source"; path: string }> = {};
    for (const path of sources) {
      const zipPath = bundlePath(path);
      if (manifest[zipPath]) continue;
      const data = readSource(path);
      if (typeof data === "string") {
        notes.push({ path, reason: data });
        continue;
      }
      if (dryRun) {
        manifest[zipPath] = { type: "source", path };
        files.push({ path, zipPath });
        continue;
      }
      if (!zip) {
        fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
        write(HEADER);
        zip = new ZipWriter(write, HEADER.length);
      }
      zip.addFile(zipPath, data);
      manifest[zipPath] = { type: "source", path };
      files.push({ path, zipPath });
    }
    if (!zip || fd === undefined) return { files, notes, size: 0 };
    const attributes = {
      files: manifest,
      arch: object.arch,
      ...(object.codeId ? { code_id: object.codeId } : {}),
      debug_id: object.debugId,
      object_name: objectName,
    };
    zip.addFile("manifest.json", new TextEncoder().encode(JSON.stringify(attributes)));
    zip.finish();
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, target);
    return { files, notes, size: zip.size };
  } finally {
    if (fd !== undefined) closeSync(fd);
    rmSync(tmp, { force: true });
  }
}

/** A DifParseError's message as a note (the DWARF could not be read), anything else rethrown. */
export function dwarfNote(path: string, err: unknown): WalkNote {
  if (err instanceof DifParseError)
    return { path, reason: `DWARF not readable for sources (${err.message})` };
  throw err;
}
