import type { TrackerContext } from "../../context.ts";
import {
  type PlannedRequest,
  Release,
  releaseNotFound,
  releasePath,
  sendPlanned,
} from "../../lib/api/releases.ts";
import { writeDryRun } from "../../lib/release/dry-run.ts";
import { resolveTime } from "../../lib/release/flags.ts";
import { resolveReleaseOrg } from "../../lib/release/target.ts";
import { writeResult } from "../../lib/view/write.ts";
import type { FinalizeFlags } from "./changes.ts";

/** `tracker release finalize <version> [<org>]`: one PUT of dateReleased (now unless --released). */
export default async function releaseFinalize(
  this: TrackerContext,
  flags: FinalizeFlags,
  version: string,
  target?: string,
): Promise<void> {
  const org = await resolveReleaseOrg(this, target, "tracker release finalize <version>");
  const dateReleased = resolveTime(flags.released ?? "now", this.now()) as string;
  const req: PlannedRequest = { method: "PUT", path: releasePath(org, version), body: { dateReleased } };
  if (flags.dryRun) return writeDryRun(this, req, flags.json);
  const release = await sendPlanned(this, org, req, Release).then(
    (r) => r.data,
    (err) => {
      throw releaseNotFound(err, org, version);
    },
  );
  writeResult(
    this,
    flags.json,
    release,
    `Finalized release ${version} in ${org} (released ${release.dateReleased ?? dateReleased}).`,
  );
}
