/**
 * Only regular files (STYLE.md "Files a command touches"): FIFOs, sockets, devices, directories
 * and the kernel's pseudo files (/proc, /sys) are refused, and a file is read up to a size cap
 * while reading — a stat size says nothing on /proc (0 for environ, petabytes for pagemap), so it
 * never decides how much is read. Opening never blocks: a FIFO is opened non-blocking and refused.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from "node:fs";

/** Why a file was not read. */
export type NotReadReason = "missing" | "not-regular" | "pseudo" | "too-large" | "unreadable";

/** A file's bytes, or why they were not read (`note` is the human text of the reason). */
export type ReadResult = { ok: true; data: Buffer } | { ok: false; why: NotReadReason; note: string };

/** An open regular file, or why it was not opened. */
export type OpenResult =
  | { ok: true; fd: number; stat: Stats }
  | { ok: false; why: NotReadReason; note: string };

const CHUNK_BYTES = 64 * 1024;

let pseudoDevs: Set<number> | undefined;

/** Device numbers of the pseudo file systems mounted at /proc and /sys (not when they are plain directories of /). */
function pseudoDevices(): Set<number> {
  if (pseudoDevs) return pseudoDevs;
  const devs = new Set<number>();
  try {
    const rootDev = statSync("/").dev;
    for (const dir of ["/proc", "/sys"]) {
      try {
        const dev = statSync(dir).dev;
        if (dev !== rootDev) devs.add(dev);
      } catch {
        // Not mounted here (macOS has neither).
      }
    }
  } catch {
    // No root to compare with: nothing is treated as a pseudo file system.
  }
  pseudoDevs = devs;
  return devs;
}

/** What kind of non-regular file a stat describes, for the note. */
function kindOf(st: Stats): string {
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  return "not a regular file";
}

/** True when a stat is of a kernel pseudo file system (/proc, /sys): sizes there mean nothing. */
export function onPseudoFileSystem(st: Stats): boolean {
  return pseudoDevices().has(st.dev);
}

/** Why a stat rules a file out, or undefined for a regular file on a real file system. */
export function notRegular(st: Stats): { why: NotReadReason; note: string } | undefined {
  if (!st.isFile()) {
    const kind = kindOf(st);
    return { why: "not-regular", note: kind === "not a regular file" ? kind : `${kind}, not a regular file` };
  }
  if (onPseudoFileSystem(st)) return { why: "pseudo", note: "a kernel pseudo file (/proc or /sys)" };
  return undefined;
}

/** The refusal of a file the system would not open, stat or read (`unreadable (EACCES)`). */
function unreadable(err: unknown): { ok: false; why: NotReadReason; note: string } {
  return {
    ok: false,
    why: "unreadable",
    note: `unreadable (${(err as NodeJS.ErrnoException).code ?? "error"})`,
  };
}

/** Opens `path` for reading without blocking; only a regular file on a real file system stays open. */
export function openRegularFile(path: string): OpenResult {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT")
      return { ok: false, why: "missing", note: "missing" };
    return unreadable(err);
  }
  try {
    const stat = fstatSync(fd);
    const bad = notRegular(stat);
    if (bad) {
      closeSync(fd);
      return { ok: false, ...bad };
    }
    return { ok: true, fd, stat };
  } catch (err) {
    closeSync(fd);
    return unreadable(err);
  }
}

/**
 * The bytes of a regular file, at most `maxBytes`: reading stops at `maxBytes + 1` bytes whatever
 * stat said, and a longer file is refused (`too-large`). Never throws for a file that is missing,
 * unreadable or not a regular file: the caller turns the result into a note.
 */
export function readRegularFile(path: string, maxBytes: number): ReadResult {
  const opened = openRegularFile(path);
  if (!opened.ok) return opened;
  const { fd, stat } = opened;
  try {
    const limit = maxBytes + 1;
    let buf = Buffer.allocUnsafe(Math.max(1, Math.min(limit, stat.size + 1, 16 * 1024 * 1024)));
    let n = 0;
    for (;;) {
      if (n === buf.length) {
        if (buf.length >= limit) break;
        const bigger = Buffer.allocUnsafe(Math.min(limit, Math.max(buf.length * 2, CHUNK_BYTES)));
        buf.copy(bigger, 0, 0, n);
        buf = bigger;
      }
      const got = readSync(fd, buf, n, buf.length - n, null);
      if (got === 0) break;
      n += got;
    }
    if (n > maxBytes) return { ok: false, why: "too-large", note: `larger than ${maxBytes} bytes` };
    return { ok: true, data: buf.subarray(0, n) };
  } catch (err) {
    return unreadable(err);
  } finally {
    closeSync(fd);
  }
}

/**
 * The first `bytes` of a regular file (fewer when it is shorter), or why it cannot be read: a FIFO,
 * device or /proc entry is refused before any read, so naming one never blocks.
 */
export function readRegularHead(path: string, bytes: number): ReadResult {
  const opened = openRegularFile(path);
  if (!opened.ok) return opened;
  try {
    const buf = Buffer.allocUnsafe(bytes);
    let got = 0;
    while (got < bytes) {
      const n = readSync(opened.fd, buf, got, bytes - got, got);
      if (n === 0) break;
      got += n;
    }
    return { ok: true, data: buf.subarray(0, got) };
  } catch (err) {
    return unreadable(err);
  } finally {
    closeSync(opened.fd);
  }
}
