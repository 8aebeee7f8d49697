/** Code mappings in bulk (API.md §21.9): `POST /api/0/organizations/{org}/code-mappings/bulk/`. */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { apiRequest } from "../http/client.ts";

/** One mapping: a stack-trace path prefix and the repository path it stands for. */
export interface CodeMapping {
  stackRoot: string;
  sourceRoot: string;
}

/** The body of one bulk request (at most CODE_MAPPINGS_PER_REQUEST mappings). */
export interface CodeMappingsRequest {
  project: string;
  repository: string;
  defaultBranch: string;
  mappings: readonly CodeMapping[];
}

/** Mappings the service takes in one request. */
export const CODE_MAPPINGS_PER_REQUEST = 300;

/** The answer: counts, and each mapping's outcome. */
export const CodeMappingsResult = v.looseObject({
  created: v.number(),
  updated: v.number(),
  errors: v.number(),
  mappings: v.array(
    v.looseObject({
      stackRoot: v.string(),
      sourceRoot: v.string(),
      status: v.string(),
      detail: v.optional(v.nullable(v.string())),
    }),
  ),
});
/** A validated bulk answer. */
export type CodeMappingsResult = v.InferOutput<typeof CodeMappingsResult>;

/** The path of the bulk endpoint. */
export function codeMappingsPath(org: string): string {
  return `/api/0/organizations/${encodeURIComponent(org)}/code-mappings/bulk/`;
}

/** Creates or updates the mappings (200, or 207 when some failed). */
export async function postCodeMappings(
  ctx: TrackerContext,
  org: string,
  body: CodeMappingsRequest,
): Promise<CodeMappingsResult> {
  const res = await apiRequest(ctx, {
    method: "POST",
    path: codeMappingsPath(org),
    host: { org },
    json: body,
    schema: CodeMappingsResult,
  });
  return res.data;
}
