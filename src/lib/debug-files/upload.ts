/**
 * Uploading debug information files (API.md §21.3 client flow), shared by `debug-files upload`,
 * `proguard upload` and `dart-symbol-map upload`: each file range is cut into chunks and hashed
 * while it streams (remembered for unchanged files), one assemble request asks for all of them,
 * only the chunks it names as missing are sent (each once, gzip when the service offers it), then
 * one more assemble starts processing; with `wait` it polls until every file is ok or error.
 */
import type { TrackerContext } from "../../context.ts";
import { assembleDifs, type DifAssembleState } from "../api/difs.ts";
import { readFileChunk, readFileChunkGzip } from "../chunk/hash.ts";
import { type ChunkSession, openChunkSession } from "../chunk/session.ts";
import { sendChunks } from "../chunk/transfer.ts";
import type { FileChunk } from "../chunk/types.ts";
import { maxWaitMs, pollWhile } from "../chunk/wait.ts";
import { ApiError } from "../errors.ts";
import { readChunkSize, writeChunkSize } from "./hash-cache.ts";
import { assembleBody, type DifUploadItem, type Hashed, hashItems } from "./hash-items.ts";

export type { DifUploadItem } from "./hash-items.ts";

/** One uploaded file in the report. */
export interface DifUploadFile {
  path: string;
  name: string;
  format: string;
  arch: string;
  debugId: string | null;
  features: readonly string[];
  size: number;
  checksum: string;
  state: string;
  detail: string | null;
  chunks: { total: number; sent: number };
}

/** What an upload did (the `--json` document of the upload commands). */
export interface DifUploadReport {
  org: string;
  project: string;
  files: DifUploadFile[];
  chunks: { total: number; sent: number; skipped: number };
  /** Every file was on the service already (one assemble request). */
  unchanged: boolean;
  /** `wait` ran out before every file was processed. */
  timedOut: boolean;
}

/** Options of uploadDifs. */
export interface DifUploadOptions {
  wait: boolean;
  /** Progress lines for a person (stderr): chunk counts, waiting. */
  progress?: (line: string) => void;
  /** The `accept` value the service must list (default `debug_files`). */
  requires?: string;
}

/** Most chunk bytes in flight at once for debug files (see sendChunks). */
export const DIF_IN_FLIGHT_BYTES = 24 * 1024 * 1024;

function acceptRule(kind = "debug_files") {
  return {
    accepts: (a: readonly string[]) => a.includes(kind),
    refusal: `The service does not accept ${kind === "debug_files" ? "debug information files" : kind} through chunk upload (too old, or not enabled).`,
  };
}

function detailText(d: unknown): string | null {
  return typeof d === "string" ? d : null;
}

function endpoint(org: string, project: string): string {
  return `POST /api/0/projects/${org}/${project}/files/difs/assemble/`;
}

const pendingState = (s: string | undefined) => s === "created" || s === "assembling";

/** Uploads the items the service lacks to `org`/`project`; see the module comment for the flow. */
export async function uploadDifs(
  ctx: TrackerContext,
  org: string,
  project: string,
  items: readonly DifUploadItem[],
  opts: DifUploadOptions,
): Promise<DifUploadReport> {
  let session: ChunkSession | undefined;
  const remembered = readChunkSize(ctx, org);
  if (remembered === undefined) session = await openChunkSession(ctx, org, acceptRule(opts.requires));
  let chunkSize = session?.options.chunkSize ?? (remembered as number);
  let hashed = await hashItems(ctx, items, chunkSize);
  let states = await assembleDifs(ctx, org, project, assembleBody(hashed));
  const lacking = () => hashed.filter((h) => (states[h.checksum]?.missingChunks.length ?? 0) > 0);
  let sent = new Set<string>();
  if (lacking().length > 0) {
    session ??= await openChunkSession(ctx, org, acceptRule(opts.requires));
    if (session.options.chunkSize !== chunkSize) {
      ctx.log.debug(
        `debug-files upload: the chunk size changed to ${session.options.chunkSize}; hashing again`,
      );
      chunkSize = session.options.chunkSize;
      hashed = await hashItems(ctx, items, chunkSize);
      states = await assembleDifs(ctx, org, project, assembleBody(hashed));
    }
    const tooLarge = hashed.filter((h) => h.item.size > (session as ChunkSession).options.maxFileSize);
    if (tooLarge.length > 0)
      throw new ApiError({
        status: 200,
        endpoint: endpoint(org, project),
        message: `${tooLarge[0]?.item.path} is larger than the service accepts (${session.options.maxFileSize} bytes)`,
      });
    const toSend = new Map<string, FileChunk>();
    for (const h of lacking()) {
      const missing = new Set(states[h.checksum]?.missingChunks);
      for (const c of h.chunks) if (missing.has(c.sha1) && !toSend.has(c.sha1)) toSend.set(c.sha1, c);
    }
    const chunks = [...toSend.values()];
    opts.progress?.(`Uploading ${chunks.length} chunk(s)`);
    await sendChunks(ctx, session.uploadUrl, session.options, chunks, {
      read: readFileChunk,
      readGzip: readFileChunkGzip,
      gzip: true,
      // With the collector run after each request, 24 MiB in flight keeps a 1 GB upload's peak RSS
      // near 130 MiB (150 MB is the target however large the files are).
      maxInFlightBytes: DIF_IN_FLIGHT_BYTES,
      collectAfterEach: true,
      onSent: (n) => opts.progress?.(`Uploaded ${n}/${chunks.length} chunks`),
    });
    sent = new Set(toSend.keys());
    states = { ...states, ...(await assembleDifs(ctx, org, project, assembleBody(lacking()))) };
    const still = lacking();
    if (still.length > 0)
      throw new ApiError({
        status: 200,
        endpoint: endpoint(org, project),
        message: `The service still lacks chunks of ${still.length} file(s) after the upload`,
        hint: "Run the same command again: chunks already received are not sent twice.",
      });
  }
  writeChunkSize(ctx, org, chunkSize);
  let timedOut = false;
  if (opts.wait && hashed.some((h) => pendingState(states[h.checksum]?.state))) {
    const cap = maxWaitMs(session?.options.maxWait);
    states = await pollWhile(
      ctx,
      states,
      async () => ({
        ...states,
        ...(await assembleDifs(
          ctx,
          org,
          project,
          assembleBody(hashed.filter((h) => pendingState(states[h.checksum]?.state))),
        )),
      }),
      (s) => hashed.some((h) => pendingState(s[h.checksum]?.state)),
      cap,
      (s, waited) => {
        states = s;
        const n = hashed.filter((h) => pendingState(s[h.checksum]?.state)).length;
        opts.progress?.(
          `Waiting for the service to process ${n} file(s) (${Math.round(waited / 1000)} s of ${Math.round(cap / 1000)} s)`,
        );
      },
    );
    timedOut = hashed.some((h) => pendingState(states[h.checksum]?.state));
  }
  return report(org, project, hashed, states, sent, timedOut);
}

function report(
  org: string,
  project: string,
  hashed: readonly Hashed[],
  states: Record<string, DifAssembleState>,
  sent: ReadonlySet<string>,
  timedOut: boolean,
): DifUploadReport {
  const all = new Set(hashed.flatMap((h) => h.chunks.map((c) => c.sha1)));
  const files = hashed.map((h) => ({
    path: h.item.path,
    name: h.item.name,
    format: h.item.format,
    arch: h.item.arch,
    debugId: h.item.debugId,
    features: h.item.features,
    size: h.item.size,
    checksum: h.checksum,
    state: states[h.checksum]?.state ?? "unknown",
    detail: detailText(states[h.checksum]?.detail),
    chunks: { total: h.chunks.length, sent: h.chunks.filter((c) => sent.has(c.sha1)).length },
  }));
  return {
    org,
    project,
    files,
    chunks: { total: all.size, sent: sent.size, skipped: all.size - sent.size },
    unchanged: sent.size === 0 && files.every((f) => f.state === "ok"),
    timedOut,
  };
}
