/**
 * `--dry-run` of the debug-file uploads: the files are hashed as an upload would (with the chunk
 * size the service named last time, else the usual 8 MiB) and the assemble request is shown;
 * nothing is sent.
 */
import type { TrackerContext } from "../../context.ts";
import type { PlannedRequest } from "../dry-run.ts";
import { formatDifDryRun } from "../format/difs.ts";
import { writeDryRunView } from "../view/write.ts";
import { readChunkSize } from "./hash-cache.ts";
import { assembleBody, type DifUploadItem, hashItems } from "./hash-items.ts";

/** The chunk size assumed when the service has not named one yet. */
export const DEFAULT_CHUNK_SIZE = 8 * 1024 * 1024;

/** The `--dry-run` document: `{dryRun: true, requests: [{method, path, body}], files}`. */
export interface DifDryRun {
  dryRun: true;
  requests: PlannedRequest[];
  files: (Omit<DifUploadItem, "source" | "offset" | "transient"> & { checksum: string; chunks: number })[];
}

/** Hashes the items and returns the request an upload would start with. */
export async function planDifUpload(
  ctx: TrackerContext,
  org: string,
  project: string,
  items: readonly DifUploadItem[],
): Promise<DifDryRun> {
  const hashed = await hashItems(ctx, items, readChunkSize(ctx, org) ?? DEFAULT_CHUNK_SIZE);
  return {
    dryRun: true,
    requests: [
      {
        method: "POST",
        path: `/api/0/projects/${org}/${project}/files/difs/assemble/`,
        body: assembleBody(hashed),
      },
    ],
    files: hashed.map(({ item: { source: _s, offset: _o, transient: _t, ...rest }, checksum, chunks }) => ({
      ...rest,
      checksum,
      chunks: chunks.length,
    })),
  };
}

/**
 * Writes a debug-file upload's `--dry-run` (lib/format/dry-run.ts): `--json` gives the plan's
 * document with `extra` after its files; the text says each file, then shows the assemble request.
 */
export function writeDifDryRun(
  ctx: TrackerContext,
  json: boolean,
  plan: DifDryRun,
  extra: Record<string, unknown> = {},
): void {
  writeDryRunView(ctx, json, {
    requests: plan.requests,
    extra: { files: plan.files, ...extra },
    said: formatDifDryRun(plan),
  });
}
