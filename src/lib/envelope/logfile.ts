/**
 * The tail of a log file for `event send --logfile`: read backwards in chunks from the end, at most
 * LOG_TAIL_MAX_BYTES, so a huge file costs no more than a small one. Only a regular file is read
 * (lib/fs/regular.ts): a FIFO would block for ever, a device or /proc entry has no honest end.
 */
import { closeSync, readSync } from "node:fs";
import { ValidationError } from "../errors.ts";
import { openRegularFile } from "../fs/regular.ts";
import { headUnits } from "../text-head.ts";

/** Lines of the log file sent as breadcrumbs (the legacy sentry-cli's number). */
export const LOG_TAIL_LINES = 100;
/** Most bytes read from the end of the file. */
export const LOG_TAIL_MAX_BYTES = 1024 * 1024;
/** Longest breadcrumb message kept from one line. */
export const LOG_LINE_MAX_CHARS = 1000;

const CHUNK_BYTES = 64 * 1024;

/** The last `count` lines of a file (empty ones skipped), oldest first; ValidationError when unreadable or not a regular file. */
export function tailLines(path: string, count = LOG_TAIL_LINES): string[] {
  const opened = openRegularFile(path);
  if (!opened.ok) {
    const why = opened.why === "missing" ? "ENOENT" : opened.note;
    const message =
      opened.why === "not-regular" || opened.why === "pseudo"
        ? `--logfile: ${path} is ${opened.note.replace(/, not a regular file$/, "")}; only a regular file can be read.`
        : `--logfile: cannot read ${path} (${why.replace(/^unreadable \((.*)\)$/, "$1")}).`;
    throw new ValidationError(message, "logfile");
  }
  const { fd } = opened;
  try {
    const size = opened.stat.size;
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
      .map((l) => (l.length > LOG_LINE_MAX_CHARS ? `${headUnits(l, LOG_LINE_MAX_CHARS - 1)}…` : l));
  } finally {
    closeSync(fd);
  }
}
