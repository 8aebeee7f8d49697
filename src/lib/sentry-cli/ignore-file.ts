/**
 * sentry-cli's `--ignore-file` (gitignore patterns) as tracker's `--ignore` globs: a regular file
 * only (a FIFO is refused without blocking on it), read up to IGNORE_FILE_MAX_BYTES while reading;
 * `#` comments and blank lines skipped, a leading or trailing `/` dropped; negations (`!`) refused.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { resolve } from "node:path";
import { ValidationError } from "../errors.ts";

/** Largest ignore file read. */
export const IGNORE_FILE_MAX_BYTES = 64 * 1024;

/** The globs of an ignore file (relative to `cwd`); ValidationError when it cannot be used. */
export function ignoreFileGlobs(cwd: string, path: string): string[] {
  const bad = (why: string) => new ValidationError(`--ignore-file ${path}: ${why}.`, "ignore-file");
  let fd: number;
  try {
    fd = openSync(resolve(cwd, path), constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw bad(`cannot read it (${(err as NodeJS.ErrnoException).code ?? "error"})`);
  }
  const buf = Buffer.alloc(IGNORE_FILE_MAX_BYTES + 1);
  let got = 0;
  try {
    if (!fstatSync(fd).isFile()) throw bad("not a regular file");
    for (;;) {
      const n = readSync(fd, buf, got, buf.length - got, null);
      if (n === 0) break;
      got += n;
      if (got > IGNORE_FILE_MAX_BYTES) throw bad(`larger than ${IGNORE_FILE_MAX_BYTES / 1024} KiB`);
    }
  } finally {
    closeSync(fd);
  }
  const globs: string[] = [];
  for (const raw of buf.subarray(0, got).toString("utf8").split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    if (line.startsWith("!"))
      throw bad(`negated patterns (${line}) are not supported; list what to leave out`);
    const glob = line.replace(/^\/+/, "").replace(/\/+$/, "");
    if (glob !== "") globs.push(glob);
  }
  return globs;
}
