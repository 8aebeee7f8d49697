/**
 * Replacing the running binary. On Unix one rename is atomic and the running process keeps its
 * inode. Windows refuses to overwrite a running .exe but lets it be renamed, so the old one is
 * moved aside to `<path>.old` (deleted on a later start) before the new one moves in.
 */
import { closeSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { UpgradeError } from "../errors.ts";

/** The file operations a swap needs; injectable so the Windows path is testable on any OS. */
export interface SwapFs {
  rename(from: string, to: string): void;
  unlink(path: string): void;
  exists(path: string): boolean;
}

/** The real file system. */
export const nodeSwapFs: SwapFs = {
  rename: renameSync,
  unlink: unlinkSync,
  exists: (p) => {
    try {
      closeSync(openSync(p, "r"));
      return true;
    } catch {
      return false;
    }
  },
};

/** Where Windows parks the replaced executable until the next start. */
export function oldBinaryPath(installPath: string): string {
  return `${installPath}.old`;
}

/** Attempts (and waits between them) when Windows reports the target file busy. */
export const WINDOWS_RENAME_RETRY_MS: readonly number[] = [100, 250, 500, 1000];

function isBusy(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException)?.code;
  return code === "EBUSY" || code === "EPERM" || code === "EACCES";
}

/** Options of swapBinary. */
export interface SwapOptions {
  platform: string;
  fs?: SwapFs;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Moves `newPath` over `installPath`. Any failure leaves the old binary in place (on Windows it
 * is moved back) and throws UpgradeError `execution_failed`.
 */
export async function swapBinary(newPath: string, installPath: string, opts: SwapOptions): Promise<void> {
  const fs = opts.fs ?? nodeSwapFs;
  if (opts.platform !== "win32") {
    try {
      fs.rename(newPath, installPath);
      return;
    } catch (err) {
      throw new UpgradeError(
        "execution_failed",
        `Could not replace ${installPath}: ${(err as Error).message}.`,
        "The old binary is unchanged; check that you can write to its directory.",
      );
    }
  }
  const old = oldBinaryPath(installPath);
  if (fs.exists(old)) {
    try {
      fs.unlink(old);
    } catch {
      // A previous .old still held open by a running tracker; renaming over it below fails clearly.
    }
  }
  try {
    fs.rename(installPath, old);
  } catch (err) {
    throw new UpgradeError(
      "execution_failed",
      `Could not move the running binary aside to ${old}: ${(err as Error).message}.`,
      "Close other running tracker processes and try again.",
    );
  }
  const sleep = opts.sleep ?? ((ms: number) => Bun.sleep(ms));
  for (let attempt = 0; ; attempt++) {
    try {
      fs.rename(newPath, installPath);
      return;
    } catch (err) {
      const wait = WINDOWS_RENAME_RETRY_MS[attempt];
      if (isBusy(err) && wait !== undefined) {
        await sleep(wait);
        continue;
      }
      try {
        fs.rename(old, installPath);
      } catch {
        // Restoring failed too; the message below names where the old binary is.
      }
      throw new UpgradeError(
        "execution_failed",
        `Could not move the new binary into ${installPath}: ${(err as Error).message}.`,
        fs.exists(installPath)
          ? "The old binary was restored."
          : `The old binary is at ${old}; rename it back to ${installPath}.`,
      );
    }
  }
}

/** Deletes a `.old` binary left by a Windows upgrade; silent when there is none or it is still in use. */
export function removeStaleOldBinary(installPath: string, fs: SwapFs = nodeSwapFs): boolean {
  const old = oldBinaryPath(installPath);
  if (!fs.exists(old)) return false;
  try {
    fs.unlink(old);
    return true;
  } catch {
    return false;
  }
}

/** Path of the lock file that keeps two upgrades of one binary apart. */
export function lockPath(installPath: string): string {
  return `${installPath}.lock`;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Takes the upgrade lock (exclusive create, holding our PID). A lock whose PID is dead is stale
 * and replaced. Returns the release function. A live holder is UpgradeError `execution_failed`.
 */
export function acquireUpgradeLock(installPath: string, pid: number = process.pid): () => void {
  const path = lockPath(installPath);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o644);
      writeSync(fd, `${pid}\n`);
      closeSync(fd);
      return () => {
        try {
          unlinkSync(path);
        } catch {
          // Removed by someone else already.
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") {
        throw new UpgradeError(
          "execution_failed",
          `Could not create ${path}: ${(err as Error).message}.`,
          "Check that you can write to the directory of the tracker binary.",
        );
      }
      let holder = Number.NaN;
      try {
        holder = Number(readFileSync(path, "utf8").trim());
      } catch {
        // Vanished between create and read: retry.
      }
      if (Number.isInteger(holder) && holder > 0 && holder !== pid && processAlive(holder)) {
        throw new UpgradeError(
          "execution_failed",
          `Another upgrade of ${installPath} is running (process ${holder}).`,
          `Wait for it to finish. If no upgrade is running, delete ${path}.`,
        );
      }
      try {
        unlinkSync(path);
      } catch {
        // Someone else removed the stale lock first.
      }
    }
  }
  throw new UpgradeError("execution_failed", `Could not take the upgrade lock ${path}.`);
}
