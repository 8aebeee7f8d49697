import { replaceFile } from "../fs/rewrite.ts";

/**
 * Writes a file by creating a temp file in the same directory and renaming it into place, so a
 * reader never sees half a file (lib/fs/rewrite.ts: exclusive random temp name, fsync). A symlinked
 * target (dotfile managers) is written through the link. An existing file keeps its mode and owner
 * (a 0600 ~/.bashrc stays 0600); a new one gets `mode` exactly, whatever the umask.
 */
export function writeFileAtomic(path: string, content: string, mode = 0o644): void {
  replaceFile(path, content, { mode });
}
