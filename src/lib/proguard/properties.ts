/**
 * `--write-properties`: sets `io.sentry.ProguardUuids=<uuid>[|<uuid>…]` in a Java properties file
 * (what the Android SDK reads from the app's assets), keeping every other line as it is — keys,
 * comments, order — and writing atomically (an exclusive temp file in the same directory, the
 * original's mode kept, renamed over it).
 */
import { readFileSync } from "node:fs";
import { ValidationError } from "../errors.ts";
import { writeFileAtomic } from "../setup/atomic.ts";

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

/** Writes the UUIDs into the properties file at `path` (created when missing). */
export function writeProguardProperties(path: string, shown: string, uuids: readonly string[]): void {
  let text = "";
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT")
      throw new ValidationError(`Cannot read ${shown}: ${(err as Error).message}`, "writeProperties");
  }
  try {
    writeFileAtomic(path, withProguardUuids(text, uuids), 0o644);
  } catch (err) {
    throw new ValidationError(`Cannot write ${shown}: ${(err as Error).message}`, "writeProperties");
  }
}
