import type { TrackerContext } from "../../context.ts";
import {
  Deploy,
  type PlannedRequest,
  releaseNotFound,
  releasePath,
  sendPlanned,
} from "../../lib/api/releases.ts";
import { writeDryRun } from "../../lib/release/dry-run.ts";
import { resolveTime } from "../../lib/release/flags.ts";
import { resolveReleaseOrg } from "../../lib/release/target.ts";
import { writeResult } from "../../lib/view/write.ts";
import type { DeployFlags } from "./changes.ts";

/** `tracker release deploy <version> [<org>] --env <environment>`: one POST (201 with the deploy). */
export default async function releaseDeploy(
  this: TrackerContext,
  flags: DeployFlags,
  version: string,
  target?: string,
): Promise<void> {
  const org = await resolveReleaseOrg(this, target, "tracker release deploy <version>");
  const started = resolveTime(flags.started, this.now());
  const finished = resolveTime(flags.finished, this.now());
  const req: PlannedRequest = {
    method: "POST",
    path: `${releasePath(org, version)}deploys/`,
    body: {
      environment: flags.env,
      ...(flags.name ? { name: flags.name } : {}),
      ...(flags.url ? { url: flags.url } : {}),
      ...(started ? { dateStarted: started } : {}),
      ...(finished ? { dateFinished: finished } : {}),
    },
  };
  if (flags.dryRun) return writeDryRun(this, req, flags.json);
  const deploy = await sendPlanned(this, org, req, Deploy).then(
    (r) => r.data,
    (err) => {
      throw releaseNotFound(err, org, version);
    },
  );
  const name = deploy.name ? ` (${deploy.name})` : "";
  writeResult(
    this,
    flags.json,
    deploy,
    `Deployed ${version} to ${deploy.environment}${name} in ${org}: deploy ${deploy.id}.`,
  );
}
