/**
 * Downloads a release asset into a file beside its destination while hashing it, so a failed,
 * interrupted or tampered download is detected before anything is replaced.
 */
import { MAX_DOWNLOAD_BYTES, releaseFetch } from "./transport.ts";
import { open, unlink } from "node:fs/promises";
import type { TrackerContext } from "../../context.ts";
import { UpgradeError } from "../errors.ts";
import { describeFetchFailure } from "./release.ts";

/** How long a binary download may take in total. */
export const DOWNLOAD_TIMEOUT_MS = 10 * 60_000;

/** What to download and what it must hash to. */
export interface DownloadRequest {
  url: string;
  /** File to create (must not exist; created with mode 0755). */
  dest: string;
  /** Expected lower-case hex sha256 of the content. */
  sha256: string;
  /** Name shown in messages. */
  asset: string;
  timeoutMs?: number;
  /** The most bytes accepted (default MAX_DOWNLOAD_BYTES). */
  maxBytes?: number;
}

/** Removes a file, ignoring one that is already gone. */
export async function removeQuietly(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch {
    // Already gone, or never created: nothing to clean up.
  }
}

/**
 * Streams `url` into `dest`, verifying length and sha256. On any failure `dest` is removed and an
 * UpgradeError is thrown: `version_not_found` for a 404, `network_error` for the rest.
 */
export async function downloadVerified(
  ctx: Pick<TrackerContext, "fetch" | "log" | "env" | "settings">,
  req: DownloadRequest,
): Promise<void> {
  ctx.log.debug(`Downloading ${req.url}`);
  let res: Response;
  try {
    res = await releaseFetch(ctx, req.url, req.timeoutMs ?? DOWNLOAD_TIMEOUT_MS);
  } catch (err) {
    if (err instanceof UpgradeError) throw err;
    throw new UpgradeError(
      "network_error",
      `Could not download ${req.asset}: ${describeFetchFailure(err)}.`,
      "Check your network connection and try again.",
      { connection: true },
    );
  }
  if (res.status === 404) {
    await res.body?.cancel();
    throw new UpgradeError(
      "version_not_found",
      `The release has no ${req.asset} (404 at ${req.url}).`,
      "This platform may not be built for that version; download a binary manually.",
    );
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    throw new UpgradeError("network_error", `Downloading ${req.asset} failed with status ${res.status}.`);
  }
  const expectedLength = Number(res.headers.get("content-length") ?? Number.NaN);
  const maxBytes = req.maxBytes ?? MAX_DOWNLOAD_BYTES;
  if (expectedLength > maxBytes) {
    await res.body.cancel();
    throw tooLarge(req.asset, maxBytes);
  }
  const hasher = new Bun.CryptoHasher("sha256");
  const file = await open(req.dest, "wx", 0o755);
  let bytes = 0;
  try {
    try {
      for await (const chunk of res.body) {
        bytes += chunk.byteLength;
        if (bytes > maxBytes) throw tooLarge(req.asset, maxBytes);
        hasher.update(chunk);
        await file.write(chunk);
      }
    } catch (err) {
      if (err instanceof UpgradeError) throw err;
      throw new UpgradeError(
        "network_error",
        `The download of ${req.asset} was interrupted after ${bytes} bytes: ${describeFetchFailure(err)}.`,
        "Nothing was changed; try again.",
        { connection: true },
      );
    }
    if (Number.isFinite(expectedLength) && bytes !== expectedLength) {
      throw new UpgradeError(
        "network_error",
        `The download of ${req.asset} was interrupted: got ${bytes} of ${expectedLength} bytes.`,
        "Nothing was changed; try again.",
        { connection: true },
      );
    }
    const actual = hasher.digest("hex");
    if (actual !== req.sha256) {
      throw new UpgradeError(
        "network_error",
        `Checksum mismatch for ${req.asset}: expected ${req.sha256}, got ${actual}.`,
        "The download was corrupted or altered on the way; nothing was changed. Try again or use another mirror.",
      );
    }
    await file.sync();
  } catch (err) {
    await file.close();
    await removeQuietly(req.dest);
    throw err;
  }
  await file.close();
}

function tooLarge(asset: string, maxBytes: number): UpgradeError {
  return new UpgradeError(
    "network_error",
    `The download of ${asset} is larger than ${Math.round(maxBytes / 1024)} KiB; it is not a tracker binary.`,
    "Nothing was changed. Check TRACKER_RELEASE_URL.",
  );
}
