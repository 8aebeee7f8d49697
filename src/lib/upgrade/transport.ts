/**
 * How `tracker upgrade` reaches the release server: through the same transport as API calls
 * (HTTPS_PROXY/NO_PROXY, an extra CA bundle), over https only (plain http only to a loopback
 * mirror), redirects included, with a timeout and a size cap for downloads and small files.
 */
import type { TrackerContext } from "../../context.ts";
import { UpgradeError } from "../errors.ts";
import { fetchOptionsFor } from "../http/transport.ts";
import { isLoopbackHost } from "../loopback.ts";

/** The largest binary a download may be (tracker's binaries are about 110 MiB). */
export const MAX_DOWNLOAD_BYTES = 512 * 1024 * 1024;

/** The largest manifest or checksum file (real ones are a few KiB), counted after decompression. */
export const MAX_SMALL_FILE_BYTES = 1024 * 1024;
/** The most redirects one release request follows (GitHub uses two). */
export const MAX_REDIRECTS = 10;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Refuses a release URL that is not https (or http on loopback): a binary must not travel in clear
 * text. `from` is the URL that redirected here, if any, for the message.
 */
export function assertSecureReleaseUrl(url: string, from?: string): void {
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
  if (u.protocol === "https:" || (u.protocol === "http:" && isLoopbackHost(u.hostname))) return;
  const redirected = from ? ` (redirected from ${hostOf(from)})` : "";
  throw new UpgradeError(
    "network_error",
    `Refusing to fetch a tracker release over ${u.protocol.replace(":", "")} from ${u.host}${redirected}: releases are only fetched over https (or http from this machine).`,
    "Set TRACKER_RELEASE_URL to an https mirror.",
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "an unknown host";
  }
}

/** The absolute target of a redirect response, or undefined when it is not a redirect. */
function redirectTarget(res: Response, url: string): string | undefined {
  const location = res.headers.get("location");
  if (!REDIRECT_STATUSES.has(res.status) || !location) return undefined;
  try {
    return new URL(location, url).href;
  } catch {
    throw new UpgradeError("network_error", `The release server at ${hostOf(url)} sent an invalid redirect.`);
  }
}

/**
 * fetch for the release server: the checks above, then the API's proxy and CA options. Redirects
 * are followed here, at most MAX_REDIRECTS, each target checked like the first URL, so an https
 * mirror cannot hand the download over to plain http. The timeout covers every hop.
 */
export async function releaseFetch(
  ctx: Pick<TrackerContext, "fetch" | "env" | "settings">,
  url: string,
  timeoutMs: number,
): Promise<Response> {
  const signal = AbortSignal.timeout(timeoutMs);
  let current = url;
  let from: string | undefined;
  for (let hop = 0; ; hop++) {
    assertSecureReleaseUrl(current, from);
    const res = await ctx.fetch(current, {
      redirect: "manual",
      signal,
      ...fetchOptionsFor(ctx as TrackerContext, current),
    } as RequestInit);
    const next = redirectTarget(res, current);
    if (next === undefined) return res;
    await res.body?.cancel();
    if (hop >= MAX_REDIRECTS) {
      throw new UpgradeError(
        "network_error",
        `The release server redirected more than ${MAX_REDIRECTS} times for ${url}.`,
        "Check TRACKER_RELEASE_URL.",
      );
    }
    from = current;
    current = next;
  }
}

/**
 * Reads a small text body (manifest, checksums) as it streams in, decompressed, and stops as soon
 * as it passes `maxBytes`: a gzip bomb or an endless body is an UpgradeError, not a full memory.
 */
export async function readCappedText(
  res: Response,
  what: string,
  maxBytes: number = MAX_SMALL_FILE_BYTES,
): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel();
      throw new UpgradeError(
        "network_error",
        `The ${what} is larger than ${Math.round(maxBytes / 1024)} KiB; it is not a tracker release file.`,
        "Check TRACKER_RELEASE_URL.",
      );
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
