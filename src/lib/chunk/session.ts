/**
 * The start of every chunk upload: the organization's options, checked (sha1 checksums, the kind
 * of upload accepted), and the upload URL, which gets the token only when it is on the service's
 * or the organization's host.
 */
import type { TrackerContext } from "../../context.ts";
import { type ChunkUploadOptions, getChunkUploadOptions } from "../api/chunk-upload.ts";
import { ConfigError } from "../errors.ts";
import { baseUrlFor, isTrustedRegionUrl } from "../http/url.ts";

/** Where and how chunks go for one run. */
export interface ChunkSession {
  options: ChunkUploadOptions;
  uploadUrl: string;
}

/** What the upload needs the server to accept (an `accept` value), and what to say when it does not. */
export interface AcceptRule {
  accepts: (accept: readonly string[]) => boolean;
  refusal: string;
}

/** The upload URL to POST chunks to; only a URL on the service's or the org's host may get the token. */
async function uploadUrlOf(ctx: TrackerContext, org: string, options: ChunkUploadOptions): Promise<string> {
  const orgBase = await baseUrlFor(ctx, { org });
  const url = new URL(options.url, `${orgBase.replace(/\/+$/, "")}/`).toString();
  if (isTrustedRegionUrl(orgBase, url) || isTrustedRegionUrl(ctx.settings.baseUrl, url)) return url;
  throw new ConfigError(
    `The service named an upload URL on another host (${new URL(url).host}); tracker sends the token only to the service it belongs to, so nothing was uploaded.`,
    "Check TRACKER_URL, or the server's chunk-upload settings (system.upload-url-prefix).",
  );
}

/** GETs the options and checks them; an empty `accept` (older servers) is taken as "everything". */
export async function openChunkSession(
  ctx: TrackerContext,
  org: string,
  rule: AcceptRule,
): Promise<ChunkSession> {
  const options = await getChunkUploadOptions(ctx, org);
  if (options.accept.length > 0 && !rule.accepts(options.accept)) throw new ConfigError(rule.refusal);
  if (options.hashAlgorithm !== "sha1")
    throw new ConfigError(
      `The service asks for ${options.hashAlgorithm} chunk checksums; tracker sends sha1.`,
    );
  return { options, uploadUrl: await uploadUrlOf(ctx, org, options) };
}
