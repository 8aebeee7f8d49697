import type { TrackerContext } from "../../context.ts";
import {
  CODE_MAPPINGS_PER_REQUEST,
  type CodeMappingsRequest,
  type CodeMappingsResult,
  codeMappingsPath,
  postCodeMappings,
} from "../../lib/api/code-mappings.ts";
import { defaultBranchOf, readCodeMappings, repositoryOf } from "../../lib/code-mappings/read.ts";
import { resolveLocalFile } from "../../lib/debug-files/local-file.ts";
import { ApiError } from "../../lib/errors.ts";
import type { PlannedRequest } from "../../lib/dry-run.ts";
import { resolveOrgProject } from "../../lib/resolve/target.ts";
import { writeDryRunView, writeResult } from "../../lib/view/write.ts";
import type { CodeMappingsUploadFlags } from "./index.ts";

/** `tracker code-mappings upload <file> [<org>/<project>]`: bulk requests of 300, counts, failures non-zero. */
export default async function codeMappingsUpload(
  this: TrackerContext,
  flags: CodeMappingsUploadFlags,
  file: string,
  target?: string,
): Promise<void> {
  const mappings = await readCodeMappings(resolveLocalFile(this.cwd, file), file);
  const { org, project } = await resolveOrgProject(this, target, {
    command: "tracker code-mappings upload <file>",
  });
  const repository = await repositoryOf(this, flags.repo);
  const defaultBranch = await defaultBranchOf(this, flags.defaultBranch);
  const bodies: CodeMappingsRequest[] = [];
  for (let i = 0; i < mappings.length; i += CODE_MAPPINGS_PER_REQUEST)
    bodies.push({
      project,
      repository,
      defaultBranch,
      mappings: mappings.slice(i, i + CODE_MAPPINGS_PER_REQUEST),
    });
  if (flags.dryRun) {
    const requests = bodies.map(
      (body): PlannedRequest => ({ method: "POST", path: codeMappingsPath(org), body }),
    );
    return writeDryRunView(this, flags.json, { requests });
  }
  const total: CodeMappingsResult = { created: 0, updated: 0, errors: 0, mappings: [] };
  for (const [i, body] of bodies.entries()) {
    if (bodies.length > 1) this.log.info(`Batch ${i + 1}/${bodies.length}: ${body.mappings.length} mappings`);
    const r = await postCodeMappings(this, org, body);
    total.created += r.created;
    total.updated += r.updated;
    total.errors += r.errors;
    total.mappings.push(...r.mappings);
  }
  writeResult(
    this,
    flags.json,
    { org, project, repository, defaultBranch, ...total },
    `Created: ${total.created}, Updated: ${total.updated}, Errors: ${total.errors}`,
  );
  const bad = total.mappings.filter((m) => m.status === "error");
  if (bad.length > 0)
    throw new ApiError({
      status: 207,
      endpoint: `POST ${codeMappingsPath(org)}`,
      message: `${bad.length} code mapping(s) failed`,
      detail: bad.map((m) => `${m.stackRoot} → ${m.sourceRoot}: ${m.detail ?? "(no detail)"}`).join("\n"),
    });
}
