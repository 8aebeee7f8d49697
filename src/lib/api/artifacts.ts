/**
 * Source-map endpoints (API.md §20): artifact-bundle assemble (chunks: chunk-upload.ts),
 * and what `sourcemap explain` reads (artifact bundles and their files, release files, Sentry's
 * per-event source-map debug answer).
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { ApiError } from "../errors.ts";
import { apiRequest } from "../http/client.ts";

const org0 = (org: string) => `/api/0/organizations/${encodeURIComponent(org)}`;
const proj0 = (org: string, project: string) =>
  `/api/0/projects/${encodeURIComponent(org)}/${encodeURIComponent(project)}`;

/** The assemble answer. */
export const AssembleResponse = v.looseObject({
  state: v.string(),
  detail: v.optional(v.nullable(v.string())),
  missingChunks: v.optional(v.array(v.string()), []),
});
/** A validated assemble answer. */
export type AssembleResponse = v.InferOutput<typeof AssembleResponse>;

/** The assemble request body. */
export interface AssembleRequest {
  checksum: string;
  chunks: readonly string[];
  projects: readonly string[];
  version?: string;
  dist?: string;
}

/** `POST …/artifactbundle/assemble/`: asks for missing chunks, starts assembly, or reports its state. */
export async function assembleBundle(
  ctx: TrackerContext,
  org: string,
  body: AssembleRequest,
): Promise<AssembleResponse> {
  const res = await apiRequest(ctx, {
    method: "POST",
    path: `${org0(org)}/artifactbundle/assemble/`,
    host: { org },
    json: body,
    // Assembling the same checksum twice is harmless: the server answers with its state.
    retry: true,
    schema: AssembleResponse,
  });
  return res.data;
}

/** One artifact bundle of a project. */
export const ArtifactBundle = v.looseObject({
  bundleId: v.string(),
  associations: v.optional(
    v.array(v.looseObject({ release: v.nullish(v.string()), dist: v.nullish(v.string()) })),
    [],
  ),
  fileCount: v.optional(v.number()),
  date: v.optional(v.nullable(v.string())),
});
/** A validated artifact bundle. */
export type ArtifactBundle = v.InferOutput<typeof ArtifactBundle>;

/** The newest artifact bundles of a project matching `query` (a release, dist, bundle id or debug id). */
export async function listArtifactBundles(
  ctx: TrackerContext,
  org: string,
  project: string,
  query: string,
): Promise<ArtifactBundle[]> {
  const res = await apiRequest(ctx, {
    path: `${proj0(org, project)}/files/artifact-bundles/`,
    host: { org },
    query: { query, sortBy: "-date_added" },
    schema: v.array(ArtifactBundle),
  });
  return res.data;
}

/** One file of an artifact bundle (`fileType` 2 = minified source, 3 = source map). */
export const BundleFile = v.looseObject({
  id: v.optional(v.string()),
  fileType: v.number(),
  filePath: v.string(),
  fileSize: v.optional(v.nullable(v.number())),
  debugId: v.optional(v.nullable(v.string())),
  sourcemap: v.optional(v.nullable(v.string())),
});
/** A validated bundle file. */
export type BundleFile = v.InferOutput<typeof BundleFile>;

/** The files of one bundle matching `query` (a URL part or a debug id). */
export async function listBundleFiles(
  ctx: TrackerContext,
  org: string,
  project: string,
  bundleId: string,
  query?: string,
): Promise<BundleFile[]> {
  const res = await apiRequest(ctx, {
    path: `${proj0(org, project)}/artifact-bundles/${encodeURIComponent(bundleId)}/files/`,
    host: { org },
    query: { query },
    schema: v.looseObject({ files: v.array(BundleFile) }),
  });
  return res.data.files;
}

/** The names (and dists) of a release's legacy files; empty when the release is unknown. */
export async function listReleaseFiles(
  ctx: TrackerContext,
  org: string,
  project: string,
  version: string,
): Promise<{ name: string; dist?: string | null }[]> {
  try {
    const res = await apiRequest(ctx, {
      path: `${proj0(org, project)}/releases/${encodeURIComponent(version)}/files/`,
      host: { org },
      schema: v.array(v.looseObject({ name: v.string(), dist: v.nullish(v.string()) })),
    });
    return res.data;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return [];
    throw err;
  }
}

const DebugFrame = v.looseObject({
  debug_id_process: v.nullish(
    v.looseObject({
      debug_id: v.nullish(v.string()),
      uploaded_source_file_with_correct_debug_id: v.nullish(v.boolean()),
      uploaded_source_map_with_correct_debug_id: v.nullish(v.boolean()),
    }),
  ),
  release_process: v.nullish(
    v.looseObject({
      abs_path: v.nullish(v.string()),
      matching_source_file_names: v.nullish(v.array(v.string())),
      source_file_lookup_result: v.nullish(v.string()),
      source_map_lookup_result: v.nullish(v.string()),
      source_map_reference: v.nullish(v.string()),
    }),
  ),
});
/** Sentry's per-event source-map debug answer (the fields explain uses). */
export const SourceMapDebug = v.looseObject({
  release: v.nullish(v.string()),
  dist: v.nullish(v.string()),
  exceptions: v.array(v.looseObject({ frames: v.array(DebugFrame) })),
});
/** A validated debug answer. */
export type SourceMapDebug = v.InferOutput<typeof SourceMapDebug>;

/** The per-event debug answer, or undefined when the service does not offer the endpoint. */
export async function getSourceMapDebug(
  ctx: TrackerContext,
  org: string,
  project: string,
  eventId: string,
): Promise<SourceMapDebug | undefined> {
  try {
    const res = await apiRequest(ctx, {
      path: `${proj0(org, project)}/events/${encodeURIComponent(eventId)}/source-map-debug-blue-thunder-edition/`,
      host: { org },
      schema: SourceMapDebug,
    });
    return res.data;
  } catch (err) {
    // The event was just read, so a 404 here means an older or self-hosted service without it.
    if (err instanceof ApiError && (err.status === 404 || err.status === 405 || err.status === 501))
      return undefined;
    throw err;
  }
}
