/**
 * An envelope file for `event send-envelope` (sentry-cli's `send-envelope`): a regular file only
 * (a FIFO or device is refused without blocking on it), read up to ENVELOPE_FILE_MAX_BYTES while
 * reading, with an envelope header (a JSON object) as its first line. The bytes are sent as they are.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { ValidationError } from "../errors.ts";

/** Largest envelope file sent (Relay's default envelope limit is larger; a CLI file rarely is). */
export const ENVELOPE_FILE_MAX_BYTES = 20 * 1024 * 1024;

/** An envelope file's bytes and its header's event_id (if any). */
export interface EnvelopeFile {
  bytes: Uint8Array;
  eventId: string | undefined;
}

/** Reads and checks an envelope file; ValidationError (field `path`) for anything else. */
export function readEnvelopeFile(path: string): EnvelopeFile {
  const bad = (why: string) => new ValidationError(`${path}: ${why}.`, "path");
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw bad(`cannot read it (${(err as NodeJS.ErrnoException).code ?? "error"})`);
  }
  const parts: Buffer[] = [];
  let total = 0;
  try {
    if (!fstatSync(fd).isFile()) throw bad("not a regular file");
    for (;;) {
      const buf = Buffer.alloc(64 * 1024);
      const got = readSync(fd, buf, 0, buf.length, null);
      if (got === 0) break;
      total += got;
      if (total > ENVELOPE_FILE_MAX_BYTES)
        throw bad(`larger than ${ENVELOPE_FILE_MAX_BYTES / 1024 / 1024} MiB`);
      parts.push(buf.subarray(0, got));
    }
  } finally {
    closeSync(fd);
  }
  const bytes = Buffer.concat(parts);
  const end = bytes.indexOf(10);
  let header: unknown;
  try {
    header = JSON.parse(bytes.subarray(0, end < 0 ? bytes.length : end).toString("utf8"));
  } catch {
    header = undefined;
  }
  if (typeof header !== "object" || header === null || Array.isArray(header)) {
    throw bad("not an envelope (its first line is not a JSON object)");
  }
  const id = (header as { event_id?: unknown }).event_id;
  return { bytes: new Uint8Array(bytes), eventId: typeof id === "string" ? id : undefined };
}
