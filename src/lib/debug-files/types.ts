/**
 * What tracker knows about a debug information file (DIF): the shared vocabulary of the object
 * readers (ELF, Mach-O, PE, PDB, Portable PDB, wasm, Breakpad, source bundles), `debug-files
 * check/find/upload` and `debug-files explain`. Readers only read headers and the sections they
 * need, through a FileWindow, never a whole file.
 */

/** A file format the service accepts as debug information (API.md §21.3 `symbolType`). */
export type DifFormat =
  | "elf"
  | "macho"
  | "pe"
  | "pdb"
  | "portablepdb"
  | "wasm"
  | "breakpad"
  | "sourcebundle"
  | "proguard"
  | "bcsymbolmap"
  | "uuidmap"
  | "il2cpp"
  | "dartsymbolmap";

/** What an object holds that symbolication can use (sentry-cli's `features`). */
export type DifFeature = "symtab" | "debug" | "unwind" | "sources" | "mapping";

/** The kind of object (symbolic's `ObjectKind`, as the service serialises it in `data.type`). */
export type DifKind = "exe" | "lib" | "dbg" | "rel" | "src" | "sources" | "other";

/** One object of a file: a fat Mach-O holds one per architecture, every other format one. */
export interface DifObject {
  format: DifFormat;
  kind: DifKind;
  /** Architecture as symbolic names it (`x86_64`, `arm64`, `x86`, `wasm32`, `any`…). */
  arch: string;
  /** Debug ID in Sentry's form (`8-4-4-4-12` UUID, lower case, plus `-<age hex>` for PDB/PE when the age is not 0); null when the object has none. */
  debugId: string | null;
  /** Code ID (GNU build ID hex, PE timestamp+size, Mach-O UUID without dashes); null when none. */
  codeId: string | null;
  features: DifFeature[];
  /** Byte range of this object inside the file (a slice of a fat Mach-O); the whole file otherwise. */
  offset: number;
  size: number;
  /** ELF `.gnu_debuglink` target, PE's PDB path: where separate debug info is expected. */
  debugFile?: string;
}

/** Random-access, bounded reads of one file (streamed: only the ranges a reader asks for). */
export interface FileWindow {
  readonly size: number;
  /** Reads `length` bytes at `offset`; fewer only at the end of the file. */
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** A parser for one format: `sniff` looks at the first bytes only; `read` may read more. */
export interface DifReader {
  format: DifFormat;
  /** True when the file starts like this format (`head` holds at most 64 bytes). */
  sniff(head: Uint8Array, name: string): boolean;
  /** The objects of the file; throws DifParseError when it is truncated or corrupt. */
  read(file: FileWindow, name: string): Promise<DifObject[]>;
}

/** A truncated or corrupt object file: a note in a walk, a clear error when named. */
export class DifParseError extends Error {
  constructor(
    readonly format: DifFormat,
    message: string,
  ) {
    super(message);
    this.name = "DifParseError";
  }
}
