/**
 * How `tracker upgrade` reaches the release server: through the same transport as API calls
 * (HTTPS_PROXY/NO_PROXY, an extra CA bundle), over https only (plain http only to a loopback
 * mirror), with a timeout and, for downloads, a size cap.
 */
import type { TrackerContext } from "../../context.ts";
import { UpgradeError } from "../errors.ts";
import { fetchOptionsFor } from "../http/transport.ts";

/** The largest binary a download may be (tracker's binaries are about 110 MiB). */
export const MAX_DOWNLOAD_BYTES = 512 * 1024 * 1024;

const LOOPBACK = new Set(["127.0.0.1", "[::1]", "localhost"]);

/** Refuses a release URL that is not https (or http on loopback): a binary must not travel in clear text. */
export function assertSecureReleaseUrl(url: string): void {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UpgradeError(
      "network_error",
      `The release URL '${url}' is not a URL.`,
      "Check TRACKER_RELEASE_URL.",
    );
  }
  if (u.protocol === "https:" || (u.protocol === "http:" && LOOPBACK.has(u.hostname))) return;
  throw new UpgradeError(
    "network_error",
    `Refusing to fetch a tracker release over ${u.protocol.replace(":", "")} from ${u.host}: releases are only fetched over https (or http from this machine).`,
    "Set TRACKER_RELEASE_URL to an https mirror.",
  );
}

/** fetch for the release server: the checks above, then the API's proxy and CA options. */
export function releaseFetch(
  ctx: Pick<TrackerContext, "fetch" | "env" | "settings">,
  url: string,
  timeoutMs: number,
): Promise<Response> {
  assertSecureReleaseUrl(url);
  return ctx.fetch(url, {
    redirect: "follow",
    signal: AbortSignal.timeout(timeoutMs),
    ...fetchOptionsFor(ctx as TrackerContext, url),
  } as RequestInit);
}
