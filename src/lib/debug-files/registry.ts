/**
 * The object readers tracker knows, in the order they are tried. A reader module registers here
 * with one line; `readers()` is what `detectDif` (and nothing else) iterates.
 */
import type { DifReader } from "./types.ts";

const LOADERS: Array<() => Promise<DifReader>> = [
  async () => (await import("./elf.ts")).elfReader,
  async () => (await import("./macho.ts")).machoReader,
  async () => (await import("./pe.ts")).peReader,
  async () => (await import("./pdb.ts")).pdbReader,
  async () => (await import("./wasm.ts")).wasmReader,
  async () => (await import("./portable-pdb.ts")).portablePdbReader,
  async () => (await import("./sourcebundle.ts")).sourceBundleReader,
  async () => (await import("./breakpad.ts")).breakpadReader,
];

/** Every reader, loaded on first use (the object readers stay out of other commands' startup). */
export async function readers(): Promise<DifReader[]> {
  return Promise.all(LOADERS.map((load) => load()));
}
