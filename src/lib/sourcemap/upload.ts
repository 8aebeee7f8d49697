/**
 * `sourcemap upload` (API.md §20.2): find the files, then either reuse the bundle remembered for
 * the same inputs (one assemble request when the server has it) or build it into chunks, ask
 * assemble which chunks are missing, send only those, assemble, and with `wait` poll to ok/error.
 */
import type { TrackerContext } from "../../context.ts";
import { type AssembleRequest, type AssembleResponse, assembleBundle } from "../api/artifacts.ts";
import { openChunkSession } from "../chunk/session.ts";
import { ChunkSpool } from "../chunk/spool.ts";
import { sendChunks } from "../chunk/transfer.ts";
import { ApiError, ValidationError } from "../errors.ts";
import { type BundleOptions, type BundledFile, buildBundle } from "./bundle.ts";
import { inputFingerprint, readCachedBundle, writeCachedBundle } from "./cache.ts";
import { type SkipNote, walkFiles } from "./walk.ts";
import { assembleWaitMs, waitForAssembly } from "./assemble-wait.ts";
import { quoteWord } from "../shell-quote.ts";

export { DEFAULT_MAX_WAIT_MS, POLL_INTERVAL_MS } from "../chunk/wait.ts";

/** Input of uploadSourcemaps. */
export interface UploadInput {
  paths: readonly string[];
  exts: readonly string[];
  ignore: readonly string[];
  bundle: Omit<BundleOptions, "maxFileSize">;
  wait: boolean;
  /** Rebuild even when the inputs are unchanged. */
  force: boolean;
  /** Called with chunk progress (sent, total) on a terminal. */
  progress?: (sent: number, total: number) => void;
}

/** What the upload did (the `--json` document). */
export interface UploadReport {
  org: string;
  projects: readonly string[];
  release: string | null;
  dist: string | null;
  files: BundledFile[];
  skipped: SkipNote[];
  bundleSize: number;
  checksum: string;
  chunks: { total: number; sent: number; skipped: number };
  /** The inputs matched a bundle built before: nothing was rebuilt. */
  reused: boolean;
  state: string;
  detail: string | null;
}

function failed(org: string, a: AssembleResponse): ApiError {
  return new ApiError({
    status: 200,
    endpoint: `POST /api/0/organizations/${org}/artifactbundle/assemble/`,
    message: "The service failed to process the uploaded files",
    detail: a.detail ?? "(no detail)",
    hint: "Check the files named above (a corrupt map, an unsupported file), then upload again.",
  });
}

/** Polls assemble until ok or error, at most maxWaitMs (capped, with progress: assemble-wait.ts). */
async function waitForResult(
  ctx: TrackerContext,
  org: string,
  req: AssembleRequest,
  first: AssembleResponse,
  capMs: number,
): Promise<AssembleResponse> {
  return waitForAssembly(ctx, first, () => assembleBundle(ctx, org, req), capMs);
}

/** Runs one upload for `org` and `projects`. */
export async function uploadSourcemaps(
  ctx: TrackerContext,
  org: string,
  input: UploadInput,
): Promise<UploadReport> {
  const { files, skipped } = walkFiles(input.paths, { cwd: ctx.cwd, exts: input.exts, ignore: input.ignore });
  if (files.length === 0) {
    throw new ValidationError(
      `No files with the extensions ${input.exts.join(", ")} under ${input.paths.join(", ")}.`,
      "path",
    );
  }
  const base: Omit<AssembleRequest, "checksum" | "chunks"> = {
    projects: input.bundle.projects,
    ...(input.bundle.release ? { version: input.bundle.release } : {}),
    ...(input.bundle.dist ? { dist: input.bundle.dist } : {}),
  };
  const report = (
    r: Pick<UploadReport, "files" | "bundleSize" | "checksum" | "chunks" | "reused">,
    a: AssembleResponse,
    notes: SkipNote[],
  ): UploadReport => ({
    org,
    projects: input.bundle.projects,
    release: input.bundle.release ?? null,
    dist: input.bundle.dist ?? null,
    skipped: notes,
    ...r,
    state: a.state,
    detail: a.detail ?? null,
  });
  const fingerprint = inputFingerprint(files, { ...input.bundle, maxFileSize: 0 });
  const cached = input.force ? undefined : readCachedBundle(ctx, org, fingerprint);
  if (cached) {
    const req = { ...base, checksum: cached.checksum, chunks: cached.chunks };
    const a = await assembleBundle(ctx, org, req);
    if (a.missingChunks.length === 0 && a.state !== "not_found") {
      ctx.log.debug(`sourcemap upload: inputs unchanged; bundle ${cached.checksum} is known to the service`);
      const done = input.wait ? await waitForResult(ctx, org, req, a, assembleWaitMs(undefined)) : a;
      if (done.state === "error") throw failed(org, done);
      const n = cached.chunks.length;
      return report(
        {
          files: cached.files,
          bundleSize: cached.size,
          checksum: cached.checksum,
          chunks: { total: n, sent: 0, skipped: n },
          reused: true,
        },
        done,
        skipped,
      );
    }
    ctx.log.debug("sourcemap upload: the service lacks chunks of the remembered bundle; rebuilding");
  }
  const { options, uploadUrl } = await openChunkSession(ctx, org, {
    accepts: (accept) => accept.some((x) => x.startsWith("artifact_bundles")),
    refusal: "The service does not accept artifact bundles (too old for debug-ID uploads).",
  });
  const spool = new ChunkSpool(options.chunkSize);
  try {
    const started = performance.now();
    const built = await buildBundle(files, { ...input.bundle, maxFileSize: options.maxFileSize }, spool);
    const ms = () => `${Math.round(performance.now() - started)} ms`;
    ctx.log.debug(`sourcemap upload: built ${built.size} bytes, ${spool.chunks.length} chunks in ${ms()}`);
    const notes = [...skipped, ...built.skipped];
    if (built.files.length === 0)
      throw new ValidationError("Nothing to upload: every file was skipped.", "path");
    // Without a debug ID or a release nothing the service receives can ever be matched to an event.
    if (!input.bundle.release && !built.files.some((f) => f.debugId))
      throw new ValidationError(
        `None of the ${built.files.length} files has a debug ID, and no --release was given: the service could never match them to an event. Run \`tracker sourcemap inject ${input.paths.map(quoteWord).join(" ")}\` first (then build and upload what it changed), or upload for a release with --release <version>.`,
        "release",
      );
    const req = { ...base, checksum: built.checksum, chunks: spool.chunks.map((c) => c.sha1) };
    let a = await assembleBundle(ctx, org, req);
    const missing = new Set(a.missingChunks);
    const toSend = spool.chunks.filter((c) => missing.has(c.sha1));
    if (toSend.length > 0) {
      input.progress?.(0, toSend.length);
      await sendChunks(ctx, uploadUrl, options, toSend, {
        read: (c) => spool.read(c),
        gzip: false,
        onSent: (n) => input.progress?.(n, toSend.length),
      });
      ctx.log.debug(`sourcemap upload: sent ${toSend.length} chunks; ${ms()} since the build began`);
      a = await assembleBundle(ctx, org, req);
    }
    if (a.state === "not_found" && a.missingChunks.length > 0)
      throw new ApiError({
        status: 200,
        endpoint: `POST /api/0/organizations/${org}/artifactbundle/assemble/`,
        message: `The service still lacks ${a.missingChunks.length} chunk(s) after the upload`,
        hint: "Run the same command again: chunks already received are not sent twice.",
      });
    if (a.state !== "error") {
      writeCachedBundle(ctx, org, fingerprint, {
        checksum: built.checksum,
        chunks: req.chunks,
        chunkSize: options.chunkSize,
        size: built.size,
        files: built.files,
      });
    }
    const maxWait = assembleWaitMs(options.maxWait);
    const done = input.wait ? await waitForResult(ctx, org, req, a, maxWait) : a;
    if (done.state === "error") throw failed(org, done);
    if (input.wait && done.state === "not_found")
      throw new ApiError({
        status: 200,
        endpoint: `POST /api/0/organizations/${org}/artifactbundle/assemble/`,
        message: "The service did not keep the bundle: every chunk was sent, and it now answers not_found",
        hint: "Run the same command again; if it happens again, the service is discarding uploads (check its storage and logs).",
      });
    const total = spool.chunks.length;
    return report(
      {
        files: built.files,
        bundleSize: built.size,
        checksum: built.checksum,
        chunks: { total, sent: toSend.length, skipped: total - toSend.length },
        reused: false,
      },
      done,
      notes,
    );
  } finally {
    spool.dispose();
  }
}
