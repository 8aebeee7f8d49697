/**
 * Debug-file endpoints (API.md §21.3–§21.5): difs/assemble (one request for many files, keyed by
 * each file's SHA-1), the project's uploaded debug files (filtered by debug ID or a query), and the
 * ProGuard release association.
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { apiRequest } from "../http/client.ts";

const proj0 = (org: string, project: string) =>
  `/api/0/projects/${encodeURIComponent(org)}/${encodeURIComponent(project)}`;

/** A debug file as the service serialises it (`DebugFileSerializer`). */
export const DebugFile = v.looseObject({
  id: v.union([v.string(), v.number()]),
  uuid: v.optional(v.nullable(v.string())),
  debugId: v.optional(v.nullable(v.string())),
  codeId: v.optional(v.nullable(v.string())),
  cpuName: v.optional(v.nullable(v.string())),
  objectName: v.optional(v.nullable(v.string())),
  symbolType: v.optional(v.nullable(v.string())),
  size: v.optional(v.nullable(v.number())),
  sha1: v.optional(v.nullable(v.string())),
  dateCreated: v.optional(v.nullable(v.string())),
  data: v.optional(
    v.nullable(
      v.looseObject({
        type: v.optional(v.nullable(v.string())),
        features: v.optional(v.nullable(v.array(v.string()))),
      }),
    ),
  ),
});
/** A validated debug file. */
export type DebugFile = v.InferOutput<typeof DebugFile>;

/** One file's assemble answer. */
export const DifAssembleState = v.looseObject({
  state: v.string(),
  detail: v.optional(v.nullable(v.unknown())),
  missingChunks: v.optional(v.array(v.string()), []),
  dif: v.optional(v.nullable(DebugFile)),
});
/** A validated per-file assemble answer. */
export type DifAssembleState = v.InferOutput<typeof DifAssembleState>;

/** One file of an assemble request. */
export interface DifAssembleFile {
  name: string;
  debug_id?: string;
  chunks: readonly string[];
}

/** `POST …/files/difs/assemble/`: the state of each file (missing chunks, created, ok, error). */
export async function assembleDifs(
  ctx: TrackerContext,
  org: string,
  project: string,
  body: Record<string, DifAssembleFile>,
): Promise<Record<string, DifAssembleState>> {
  const res = await apiRequest(ctx, {
    method: "POST",
    path: `${proj0(org, project)}/files/difs/assemble/`,
    host: { org },
    json: body,
    // Assembling the same checksums twice is harmless: the server answers with their state.
    retry: true,
    schema: v.record(v.string(), DifAssembleState),
  });
  return res.data;
}

/** `GET …/files/dsyms/`: the project's debug files with this debug ID (or matching `query`), newest first. */
export async function listDebugFiles(
  ctx: TrackerContext,
  org: string,
  project: string,
  filter: { debugId?: string; query?: string },
): Promise<DebugFile[]> {
  const res = await apiRequest(ctx, {
    path: `${proj0(org, project)}/files/dsyms/`,
    host: { org },
    query: { debug_id: filter.debugId, query: filter.query },
    schema: v.array(DebugFile),
  });
  return res.data;
}

/** `POST …/files/proguard-artifact-releases/`: ties an uploaded mapping to a release (409 when it already is). */
export async function associateProguardRelease(
  ctx: TrackerContext,
  org: string,
  project: string,
  release: string,
  uuid: string,
): Promise<void> {
  await apiRequest(ctx, {
    method: "POST",
    path: `${proj0(org, project)}/files/proguard-artifact-releases/`,
    host: { org },
    json: { release_name: release, proguard_uuid: uuid },
    schema: v.unknown(),
  });
}
