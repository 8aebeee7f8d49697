/** Private directories and files: created and kept without group or other access. */
import { chmodSync, existsSync, mkdirSync, statSync } from "node:fs";

/**
 * Ensures a directory exists with mode 0700. An existing directory open to group or others is
 * tightened by clearing those bits only: owner bits are never added, so a deliberately read-only
 * directory (CI image, 0500) stays read-only. A directory we may not chmod (not ours) is left as is.
 */
export function ensurePrivateDir(dir: string): void {
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  tighten(dir, 0o700);
}

/** Clears the mode bits of `path` outside `allowed` (never adds any); a path we may not chmod is left alone. */
export function tighten(path: string, allowed: number): void {
  try {
    const mode = statSync(path).mode & 0o777;
    if ((mode & ~allowed) !== 0) chmodSync(path, mode & allowed);
  } catch {
    // Not ours or on a read-only mount: a failing write reports the real problem later.
  }
}
