import type { TrackerContext } from "../../context.ts";
import {
  type PlannedRequest,
  Release,
  releasePath,
  releasesPath,
  sendPlanned,
} from "../../lib/api/releases.ts";
import { writeTip } from "../../lib/output.ts";
import { writeResult } from "../../lib/view/write.ts";
import { writeDryRun } from "../../lib/release/dry-run.ts";
import { resolveCreateScope } from "../../lib/release/target.ts";
import type { CreateFlags } from "./changes.ts";

/** The service's answer to a create of a version that exists with these projects already. */
const ALREADY_REPORTED = 208;

/**
 * `tracker release create <version> [<target>]`: one POST (get-or-create by version, with
 * dateReleased when --finalize). An existing version is success: said on stderr, exit 0; with
 * --finalize an unfinalized existing release is finalized by one more request.
 */
export default async function releaseCreate(
  this: TrackerContext,
  flags: CreateFlags,
  version: string,
  target?: string,
): Promise<void> {
  const { org, projects } = await resolveCreateScope(
    this,
    target,
    flags.project ?? [],
    "tracker release create <version>",
  );
  const now = new Date(this.now()).toISOString();
  const req: PlannedRequest = {
    method: "POST",
    path: releasesPath(org),
    body: {
      version,
      projects,
      ...(flags.ref ? { ref: flags.ref } : {}),
      ...(flags.url ? { url: flags.url } : {}),
      ...(flags.finalize ? { dateReleased: now } : {}),
    },
  };
  if (flags.dryRun) return writeDryRun(this, req, flags.json);
  const res = await sendPlanned(this, org, req, Release);
  const created = res.status !== ALREADY_REPORTED;
  let release = res.data;
  if (!created) {
    writeTip(this, `Release ${version} already exists in ${org} with these projects; it was not changed.`);
    if (flags.finalize && !release.dateReleased) {
      const put: PlannedRequest = {
        method: "PUT",
        path: releasePath(org, version),
        body: { dateReleased: now },
      };
      release = (await sendPlanned(this, org, put, Release)).data;
      writeTip(this, `Finalized ${version} (it was not released yet).`);
    }
  }
  const finalized = release.dateReleased ? " and finalized it" : "";
  // An existing release was said on stderr above: stdout says nothing then.
  const said = created ? [`Created release ${version} in ${org} (${projects.join(", ")})${finalized}.`] : [];
  writeResult(this, flags.json, { created, release }, said);
}
