/**
 * A stand-in for detect.ts (written on the difs-read branch), so the upload pipeline runs before
 * the branches merge: the lead deletes this file at the merge and points its importers at
 * detect.ts. `openFileWindow` reads ranges of a file on demand; `detectDif` sniffs the first 64
 * bytes against every registered reader and lets the first that matches read the objects.
 */
import { readers } from "./registry.ts";
import type { DifObject, FileWindow } from "./types.ts";

/** Bytes a reader's sniff sees. */
const HEAD_BYTES = 64;

/** A FileWindow over a file on disk (nothing is read until a range is asked for). */
export function openFileWindow(path: string, size?: number): FileWindow {
  const file = Bun.file(path);
  return {
    size: size ?? file.size,
    read: (offset, length) => file.slice(offset, offset + length).bytes(),
  };
}

/** The objects of a debug information file, or null when no reader knows it; throws DifParseError when corrupt. */
export async function detectDif(window: FileWindow, name: string): Promise<DifObject[] | null> {
  const head = await window.read(0, Math.min(HEAD_BYTES, window.size));
  for (const reader of await readers()) {
    if (reader.sniff(head, name)) return reader.read(window, name);
  }
  return null;
}
