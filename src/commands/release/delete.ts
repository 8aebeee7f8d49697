import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { type PlannedRequest, releaseNotFound, releasePath, sendPlanned } from "../../lib/api/releases.ts";
import { writeJson, writeLines } from "../../lib/output.ts";
import { writeDryRun } from "../../lib/releases/dry-run.ts";
import { resolveReleaseOrg } from "../../lib/releases/target.ts";
import type { ReleaseChangeFlags } from "./changes.ts";

/** `tracker release delete <version> [<org>]`: one DELETE (204). */
export default async function releaseDelete(
  this: TrackerContext,
  flags: ReleaseChangeFlags,
  version: string,
  target?: string,
): Promise<void> {
  const org = await resolveReleaseOrg(this, target, "tracker release delete <version>");
  const req: PlannedRequest = { method: "DELETE", path: releasePath(org, version) };
  if (flags.dryRun) return writeDryRun(this, req, flags.json);
  await sendPlanned(this, org, req, v.unknown()).catch((err) => {
    throw releaseNotFound(err, org, version);
  });
  if (flags.json) return writeJson(this, { deleted: version, org });
  writeLines(this, `Deleted release ${version} from ${org}.`);
}
