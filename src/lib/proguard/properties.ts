/**
 * `--write-properties`: sets `io.sentry.ProguardUuids=<uuid>[|<uuid>…]` in a Java properties file
 * (what the Android SDK reads from the app's assets), keeping every other line as it is — keys,
 * comments, order — and writing atomically (an exclusive temp file in the same directory, the
 * original's mode kept, renamed over it).
 */
import { ValidationError } from "../errors.ts";
import { writeFileAtomic } from "../setup/atomic.ts";
import { readRegularFile } from "../fs/regular.ts";

/** The key the Android SDK reads. */
export const PROGUARD_UUIDS_KEY = "io.sentry.ProguardUuids";

/** The file's text with the key set (replaced where it was, else appended). */
export function withProguardUuids(text: string, uuids: readonly string[]): string {
  const line = `${PROGUARD_UUIDS_KEY}=${uuids.join("|")}`;
  const lines = text === "" ? [] : text.replace(/\r?\n$/, "").split(/\r?\n/);
  let found = false;
  const out: string[] = [];
  for (const l of lines) {
    const key = /^\s*([^\s=:#!][^=:\s]*)/.exec(l)?.[1];
    if (key === PROGUARD_UUIDS_KEY) {
      if (!found) out.push(line);
      found = true;
    } else out.push(l);
  }
  if (!found) out.push(line);
  return `${out.join("\n")}\n`;
}

/** Largest properties file read (a real one is a few lines). */
const MAX_PROPERTIES_BYTES = 1024 * 1024;

/** Writes the UUIDs into the properties file at `path` (created when missing). */
export function writeProguardProperties(path: string, shown: string, uuids: readonly string[]): void {
  let text = "";
  // A regular file, read up to the cap while reading (a FIFO or /proc entry would hang or never end).
  const read = readRegularFile(path, MAX_PROPERTIES_BYTES);
  if (read.ok) text = read.data.toString("utf8");
  else if (read.why !== "missing")
    throw new ValidationError(`Cannot read ${shown}: ${read.note}.`, "writeProperties");
  try {
    writeFileAtomic(path, withProguardUuids(text, uuids), 0o644);
  } catch (err) {
    throw new ValidationError(`Cannot write ${shown}: ${(err as Error).message}`, "writeProperties");
  }
}
