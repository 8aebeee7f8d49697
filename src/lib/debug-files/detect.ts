/**
 * Opening and recognising debug information files: `openFileWindow` gives positional reads over a
 * regular file's descriptor (nothing is read until a reader asks), `detectDif` asks each reader in
 * `readers()` whether the first bytes look like its format and lets the first that says yes read it.
 */
import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { readers } from "./registry.ts";
import type { DifObject, FileWindow } from "./types.ts";
import { notRegular } from "../fs/regular.ts";

/** How many bytes the readers' `sniff` sees. */
export const SNIFF_BYTES = 64;

/** A FileWindow over an open file; `close()` releases the descriptor. */
export interface OpenFileWindow extends FileWindow {
  readonly path: string;
  close(): Promise<void>;
}

/** Why a path cannot be opened as a file window (not a regular file). */
export class NotRegularFileError extends Error {
  constructor(readonly path: string) {
    super(`${path} is not a regular file`);
    this.name = "NotRegularFileError";
  }
}

/**
 * Opens a regular file for positional reads. FIFOs, sockets and devices are refused before any
 * read (O_NONBLOCK keeps opening a FIFO from blocking), and so are /proc and /sys entries.
 */
export async function openFileWindow(path: string): Promise<OpenFileWindow> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = await handle.stat();
    // Not a regular file, or one of /proc and /sys (whose sizes mean nothing): refused before any read.
    if (notRegular(st)) throw new NotRegularFileError(path);
    return windowOver(handle, path, st.size);
  } catch (e) {
    await handle.close();
    throw e;
  }
}

function windowOver(handle: FileHandle, path: string, size: number): OpenFileWindow {
  return {
    path,
    size,
    async read(offset, length) {
      const want = Math.max(0, Math.min(length, size - offset));
      if (want === 0 || offset < 0) return new Uint8Array(0);
      const buf = new Uint8Array(want);
      let got = 0;
      while (got < want) {
        const { bytesRead } = await handle.read(buf, got, want - got, offset + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      return got === want ? buf : buf.subarray(0, got);
    },
    close: () => handle.close(),
  };
}

/**
 * A FileWindow over a file the caller has already found to be a regular file of `size` bytes (a
 * directory walk's lstat): ranges are read on demand and no descriptor stays open between them.
 */
export function lazyFileWindow(path: string, size: number): FileWindow {
  const file = Bun.file(path);
  return {
    size,
    read: (offset, length) => file.slice(offset, Math.min(size, offset + length)).bytes(),
  };
}

/** A FileWindow over bytes already in memory (tests, entries of small archives). */
export function memoryWindow(data: Uint8Array): FileWindow {
  return {
    size: data.length,
    read: async (offset, length) => data.subarray(offset, Math.min(data.length, offset + length)),
  };
}

/**
 * The objects of a file, or null when no reader recognises it ("not debug information").
 * Throws DifParseError when a reader recognised the format but the file is truncated or corrupt.
 */
export async function detectDif(file: FileWindow, name: string): Promise<DifObject[] | null> {
  const head = await file.read(0, Math.min(SNIFF_BYTES, file.size));
  for (const reader of await readers()) {
    if (reader.sniff(head, name)) return reader.read(file, name);
  }
  return null;
}
