/**
 * The chunk-upload endpoints shared by every upload (API.md §20.2, §21.2): the organization's
 * options (chunk size, limits, concurrency, what it accepts) and the chunk POST itself.
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { apiRequest } from "../http/client.ts";

const org0 = (org: string) => `/api/0/organizations/${encodeURIComponent(org)}`;

/** `GET …/chunk-upload/`: where and how chunks go. */
export const ChunkUploadOptions = v.looseObject({
  url: v.string(),
  chunkSize: v.pipe(v.number(), v.integer(), v.minValue(1024)),
  chunksPerRequest: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 64),
  maxRequestSize: v.optional(v.number(), 33_554_432),
  maxFileSize: v.optional(v.number(), 2_147_483_648),
  concurrency: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 1),
  hashAlgorithm: v.optional(v.string(), "sha1"),
  compression: v.optional(v.array(v.string()), []),
  accept: v.optional(v.array(v.string()), []),
  maxWait: v.optional(v.number()),
});
/** Validated chunk-upload options. */
export type ChunkUploadOptions = v.InferOutput<typeof ChunkUploadOptions>;

/** The chunk-upload options of an organization. */
export async function getChunkUploadOptions(ctx: TrackerContext, org: string): Promise<ChunkUploadOptions> {
  const res = await apiRequest(ctx, {
    path: `${org0(org)}/chunk-upload/`,
    host: { org },
    schema: ChunkUploadOptions,
  });
  return res.data;
}

/** One multipart part: the chunk's SHA-1 and the bytes to send (gzip when `gzip`). */
export interface ChunkPart {
  sha1: string;
  bytes: Uint8Array;
  gzip: boolean;
}

/** A multipart/form-data body with one part per chunk, named by its SHA-1. */
export function multipartBody(parts: readonly ChunkPart[]): { body: Uint8Array; contentType: string } {
  const boundary = `----tracker${Bun.randomUUIDv7().replaceAll("-", "")}`;
  const enc = new TextEncoder();
  const pieces: Uint8Array[] = [];
  for (const p of parts) {
    pieces.push(
      enc.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="${p.gzip ? "file_gzip" : "file"}"; filename="${p.sha1}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      p.bytes,
      enc.encode("\r\n"),
    );
  }
  pieces.push(enc.encode(`--${boundary}--\r\n`));
  // One buffer rather than a Blob: Bun keeps a Blob body's memory well after the request is done.
  const body = new Uint8Array(pieces.reduce((n, x) => n + x.length, 0));
  let at = 0;
  for (const x of pieces) {
    body.set(x, at);
    at += x.length;
  }
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * POSTs chunks to the upload URL (already checked to be trusted with the token). The body is
 * bytes: the HTTP client's `rawBody` is typed as text, but it hands the value to fetch unchanged.
 */
export async function postChunks(
  ctx: TrackerContext,
  uploadUrl: string,
  parts: readonly ChunkPart[],
): Promise<void> {
  const u = new URL(uploadUrl);
  const { body, contentType } = multipartBody(parts);
  await apiRequest(ctx, {
    method: "POST",
    path: u.pathname,
    host: { baseUrl: u.origin },
    query: Object.fromEntries(u.searchParams),
    rawBody: body as unknown as string,
    headers: { "Content-Type": contentType },
    // Chunks are addressed by content: sending one twice is harmless.
    retry: true,
    timeoutMs: 300_000,
    schema: v.unknown(),
  });
}
