/** A file the user named for a symbol command: it must be a regular file (not a FIFO, device or /proc entry). */
import { realpathSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { ValidationError } from "../errors.ts";

/** The real path of a named regular file; a ValidationError otherwise. */
export function resolveLocalFile(cwd: string, path: string): string {
  let real: string;
  try {
    real = realpathSync(resolve(cwd, path));
  } catch {
    throw new ValidationError(`No such file: ${path}`, "path");
  }
  if (real === "/proc" || real.startsWith("/proc/"))
    throw new ValidationError(`${path} is under /proc, which tracker does not read.`, "path");
  if (!statSync(real).isFile()) throw new ValidationError(`${path} is not a regular file.`, "path");
  return real;
}
