/**
 * The tail of a log file for `event send --logfile`: read backwards in chunks from the end, at most
 * LOG_TAIL_MAX_BYTES, so a huge file costs no more than a small one.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { ValidationError } from "../errors.ts";

/** Lines of the log file sent as breadcrumbs (the legacy sentry-cli's number). */
export const LOG_TAIL_LINES = 100;
/** Most bytes read from the end of the file. */
export const LOG_TAIL_MAX_BYTES = 1024 * 1024;
/** Longest breadcrumb message kept from one line. */
export const LOG_LINE_MAX_CHARS = 1000;

const CHUNK_BYTES = 64 * 1024;

/** The last `count` lines of a file (empty ones skipped), oldest first; ValidationError when unreadable. */
export function tailLines(path: string, count = LOG_TAIL_LINES): string[] {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "error";
    throw new ValidationError(`--logfile: cannot read ${path} (${code}).`, "logfile");
  }
  try {
    const size = fstatSync(fd).size;
    const chunks: Buffer[] = [];
    let read = 0;
    let newlines = 0;
    while (read < size && read < LOG_TAIL_MAX_BYTES && newlines <= count) {
      const len = Math.min(CHUNK_BYTES, size - read, LOG_TAIL_MAX_BYTES - read);
      const buf = Buffer.alloc(len);
      const got = readSync(fd, buf, 0, len, size - read - len);
      chunks.unshift(buf.subarray(0, got));
      read += len;
      for (let i = 0; i < got; i++) if (buf[i] === 10) newlines++;
    }
    let lines = Buffer.concat(chunks).toString("utf8").split(/\r?\n/);
    // The first line is partial when the read stopped before the start of the file.
    if (read < size) lines = lines.slice(1);
    return lines
      .filter((l) => l.trim() !== "")
      .slice(-count)
      .map((l) => (l.length > LOG_LINE_MAX_CHARS ? `${l.slice(0, LOG_LINE_MAX_CHARS - 1)}…` : l));
  } finally {
    closeSync(fd);
  }
}
