/**
 * `debug-files check` without the command: open one named file, read its objects and judge them as
 * sentry-cli does (usable = some object has a debug id and some feature). A file that is not debug
 * information, a directory, or a truncated/corrupt object file is a ValidationError naming the path.
 */
import { resolve } from "node:path";
import { ValidationError } from "../errors.ts";
import { detectDif, NotRegularFileError, openFileWindow } from "./detect.ts";
import { readers } from "./registry.ts";
import { type DifFeature, type DifFormat, type DifKind, type DifObject, DifParseError } from "./types.ts";

/** The order features are listed in (sentry-cli's). */
export const FEATURE_ORDER: readonly DifFeature[] = ["symtab", "debug", "unwind", "sources", "mapping"];

/** Each format's name in messages and human output. */
export const DIF_FORMAT_NAMES: Record<DifFormat, string> = {
  elf: "ELF",
  macho: "Mach-O",
  pe: "PE",
  pdb: "PDB",
  portablepdb: "Portable PDB",
  wasm: "WebAssembly",
  breakpad: "Breakpad",
  sourcebundle: "source bundle",
  proguard: "ProGuard mapping",
  bcsymbolmap: "BCSymbolMap",
  uuidmap: "UUID map",
  il2cpp: "IL2CPP line mapping",
  dartsymbolmap: "Dart symbol map",
};

/** What `debug-files check` reports for one file (its --json document). */
export interface DifCheckReport {
  path: string;
  format: DifFormat;
  kind: DifKind;
  objects: DifObject[];
  /** Union of the objects' features, in FEATURE_ORDER. */
  features: DifFeature[];
  usable: boolean;
  /** Why the file is not usable (sentry-cli's wording); null when usable. */
  problem: string | null;
}

/** Reads and judges one named file; never returns for a file that is not debug information. */
export async function checkDifFile(cwd: string, path: string): Promise<DifCheckReport> {
  const full = resolve(cwd, path);
  let window: Awaited<ReturnType<typeof openFileWindow>>;
  try {
    window = await openFileWindow(full);
  } catch (e) {
    if (e instanceof NotRegularFileError) {
      const hint = /\.dsym\/?$/i.test(path)
        ? "name the file inside it, <bundle>/Contents/Resources/DWARF/<name>"
        : "name one debug information file (debug-files upload walks directories)";
      throw new ValidationError(`${path} is not a regular file: ${hint}.`);
    }
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : (code ?? "unreadable");
    throw new ValidationError(`Cannot read ${path}: ${why}.`);
  }
  let objects: DifObject[] | null;
  try {
    objects = await detectDif(window, full);
  } catch (e) {
    if (e instanceof DifParseError) {
      throw new ValidationError(`${path} cannot be read as ${DIF_FORMAT_NAMES[e.format]}: ${e.message}.`);
    }
    throw e;
  } finally {
    await window.close();
  }
  if (objects === null || objects.length === 0) {
    const known = [...new Set((await readers()).map((r) => DIF_FORMAT_NAMES[r.format]))].join(", ");
    throw new ValidationError(`${path} is not a debug information file (tracker reads: ${known}).`);
  }
  return judge(path, objects);
}

function judge(path: string, objects: DifObject[]): DifCheckReport {
  const present = new Set(objects.flatMap((o) => o.features));
  const features = FEATURE_ORDER.filter((f) => present.has(f));
  const hasIds = objects.some((o) => o.debugId !== null);
  const problem = !hasIds
    ? "missing debug identifier, likely stripped"
    : features.length === 0
      ? "missing debug or unwind information"
      : null;
  return {
    path,
    format: objects[0]!.format,
    kind: objects[0]!.kind,
    objects,
    features,
    usable: problem === null,
    problem,
  };
}
