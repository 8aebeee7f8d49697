/**
 * Finding debug information files for `debug-files upload/find` (API.md §21.6). Walks the paths
 * the user named under the workspace file rules (STYLE.md): each root is resolved once and nothing
 * that leaves it is followed (symlinks out of the tree are a note), only regular files are read,
 * `/proc` is skipped, an unreadable file is a note. `.dSYM` bundles are directories and are walked
 * like any other; zip archives are opened and their members searched (not nested zips). A file
 * that is not debug information is skipped silently in a walk and is an error when named; a
 * corrupt one is a note in a walk and an error when named. A fat Mach-O yields one object per
 * slice, each with its own byte range.
 */
import { lstatSync, readdirSync, realpathSync, statSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { ValidationError } from "../errors.ts";
import { detectDif, lazyFileWindow } from "./detect.ts";
import { isInside } from "../fs/contain.ts";
import { onPseudoFileSystem } from "../fs/regular.ts";
import { readers } from "./registry.ts";
import { DifParseError, type DifObject, type FileWindow } from "./types.ts";
import { inflateMember, listZipMembers, looksLikeZip, memberHead, type ZipMember } from "./zip-members.ts";

/** One object found: where its bytes are, and what it is. */
export interface FoundDif {
  /** The file holding the bytes (a zip member's temp copy, or the archive itself for stored members). */
  source: string;
  /** The path shown to the user (`archive.zip:member` for zip members). */
  display: string;
  /** The name the service gets (the file's base name). */
  name: string;
  object: DifObject;
}

/** A file left out, and why. */
export interface WalkNote {
  path: string;
  reason: string;
}

/** Options of walkDifs. */
export interface DifWalkOptions {
  cwd: string;
  /** Where deflated zip members are inflated (the caller removes it). */
  tempDir: string;
  /** Search zip archives (default true). */
  zips?: boolean;
}

const HEAD_BYTES = 64;

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

async function sniffs(head: Uint8Array, name: string): Promise<boolean> {
  return (await readers()).some((r) => r.sniff(head, name));
}

/** Every debug information file under `paths`, in walk order (sorted names). */
export async function walkDifs(
  paths: readonly string[],
  opts: DifWalkOptions,
): Promise<{ difs: FoundDif[]; notes: WalkNote[] }> {
  const difs: FoundDif[] = [];
  const notes: WalkNote[] = [];
  let extracted = 0;

  const fromZip = async (zipPath: string, display: string, window: FileWindow, named: boolean) => {
    let members: ZipMember[];
    try {
      members = await listZipMembers(window);
    } catch (err) {
      if (named)
        throw new ValidationError(`${display}: not a readable zip archive (${message(err)}).`, "path");
      notes.push({ path: display, reason: `unreadable zip archive (${message(err)})` });
      return;
    }
    for (const m of members) {
      const shown = `${display}:${m.name}`;
      const head = await memberHead(window, m, HEAD_BYTES);
      if (head.length === 0 || looksLikeZip(head) || !(await sniffs(head, m.name))) continue;
      let source = zipPath;
      let base = m.dataOffset;
      if (m.method !== 0) {
        source = join(opts.tempDir, `member-${extracted++}`);
        base = 0;
        try {
          await inflateMember(zipPath, m, source);
        } catch (err) {
          notes.push({ path: shown, reason: `unreadable member (${message(err)})` });
          continue;
        }
      }
      const inner: FileWindow = {
        size: m.size,
        read: (offset, length) => window.read(base + offset, Math.max(0, Math.min(length, m.size - offset))),
      };
      const memberWindow = m.method === 0 ? inner : lazyFileWindow(source, m.size);
      try {
        const objects = (await detectDif(memberWindow, basename(m.name))) ?? [];
        for (const o of objects)
          difs.push({
            source,
            display: shown,
            name: basename(m.name),
            object: { ...o, offset: o.offset + base },
          });
      } catch (err) {
        if (!(err instanceof DifParseError)) throw err;
        notes.push({ path: shown, reason: err.message });
      }
    }
  };

  const fromFile = async (abs: string, display: string, size: number, named: boolean) => {
    const window = lazyFileWindow(abs, size);
    let head: Uint8Array;
    try {
      head = await window.read(0, Math.min(HEAD_BYTES, size));
    } catch (err) {
      if (named) throw new ValidationError(`Cannot read ${display}: ${message(err)}`, "path");
      notes.push({ path: display, reason: `unreadable (${message(err)})` });
      return;
    }
    if (opts.zips !== false && looksLikeZip(head)) return fromZip(abs, display, window, named);
    try {
      const objects = await detectDif(window, basename(abs));
      if (objects === null) {
        if (named)
          throw new ValidationError(
            `${display} is not a debug information file tracker can read (Breakpad .sym${(await readers()).length > 1 ? ", object files" : ""}, or a zip of them).`,
            "path",
          );
        return;
      }
      for (const o of objects) difs.push({ source: abs, display, name: basename(abs), object: o });
    } catch (err) {
      if (!(err instanceof DifParseError)) throw err;
      if (named) throw new ValidationError(`${display}: ${err.message}`, "path");
      notes.push({ path: display, reason: err.message });
    }
  };

  for (const raw of paths) {
    const arg = resolve(opts.cwd, raw);
    let root: string;
    let st: ReturnType<typeof statSync>;
    try {
      root = realpathSync(arg);
      st = statSync(root);
    } catch {
      throw new ValidationError(`No such file or directory: ${raw}`, "path");
    }
    if (onPseudoFileSystem(st))
      throw new ValidationError(`${raw} is under /proc or /sys, which tracker does not read.`, "path");
    if (st.isFile()) {
      await fromFile(root, raw, st.size, true);
      continue;
    }
    if (!st.isDirectory()) throw new ValidationError(`${raw} is not a regular file or directory.`, "path");
    const visiting = new Set<string>();
    const walk = async (dir: string, real: string) => {
      if (visiting.has(real)) {
        notes.push({ path: relative(opts.cwd, dir) || dir, reason: "symlink loop (not followed)" });
        return;
      }
      visiting.add(real);
      let names: string[];
      try {
        names = readdirSync(dir).sort();
      } catch (err) {
        notes.push({ path: relative(opts.cwd, dir) || dir, reason: `unreadable (${message(err)})` });
        visiting.delete(real);
        return;
      }
      for (const name of names) {
        const abs = join(dir, name);
        const shown = relative(opts.cwd, abs) || abs;
        let target = abs;
        let s: ReturnType<typeof statSync>;
        try {
          s = lstatSync(abs);
          if (s.isSymbolicLink()) {
            target = realpathSync(abs);
            if (!isInside(root, target)) {
              notes.push({ path: shown, reason: "symlink out of the tree (not followed)" });
              continue;
            }
            s = statSync(target);
          }
        } catch {
          notes.push({ path: shown, reason: "broken symlink" });
          continue;
        }
        if (s.isDirectory()) await walk(abs, target === abs ? realpathSync(abs) : target);
        else if (s.isFile()) await fromFile(target, shown, s.size, false);
        else notes.push({ path: shown, reason: "not a regular file (skipped)" });
      }
      visiting.delete(real);
    };
    await walk(arg, root);
  }
  return { difs, notes };
}
