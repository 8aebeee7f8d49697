/** A file the user named for a symbol command: it must be a regular file (not a FIFO, device or /proc entry). */
import { realpathSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { ValidationError } from "../errors.ts";
import { notRegular } from "../fs/regular.ts";

/** The real path of a named regular file; a ValidationError otherwise. */
export function resolveLocalFile(cwd: string, path: string): string {
  let real: string;
  try {
    real = realpathSync(resolve(cwd, path));
  } catch {
    throw new ValidationError(`No such file: ${path}`, "path");
  }
  const bad = notRegular(statSync(real));
  if (bad?.why === "pseudo")
    throw new ValidationError(`${path} is under /proc or /sys, which tracker does not read.`, "path");
  if (bad) throw new ValidationError(`${path} is not a regular file.`, "path");
  return real;
}
