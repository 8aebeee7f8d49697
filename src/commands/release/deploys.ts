import type { TrackerContext } from "../../context.ts";
import { listDeploys } from "../../lib/api/releases.ts";
import { formatDeployTable, sortDeploys } from "../../lib/format/release-table.ts";
import { writeJson, writeList, writeTip } from "../../lib/output.ts";
import { resolveReleaseOrg } from "../../lib/release/target.ts";
import type { ReleaseReadFlags } from "./index.ts";

/** `tracker release deploys <version> [<org>]`: the latest deploy per project and environment. */
export default async function releaseDeploys(
  this: TrackerContext,
  flags: ReleaseReadFlags,
  version: string,
  target?: string,
): Promise<void> {
  const org = await resolveReleaseOrg(this, target, "tracker release deploys <version>");
  const deploys = sortDeploys(await listDeploys(this, org, version));
  if (flags.json) return writeJson(this, deploys);
  if (deploys.length === 0) {
    writeTip(
      this,
      `${version} has no deploys. Record one: tracker release deploy ${version} ${org} --env <environment>`,
    );
    return;
  }
  await writeList(
    this,
    formatDeployTable(deploys, {
      width: this.isStdoutTTY ? this.terminalWidth : undefined,
      nowMs: this.now(),
    }),
  );
}
