import type { TrackerContext } from "../../context.ts";
import { listDeploys } from "../../lib/api/releases.ts";
import { RELEASE_DEPLOYS_VIEW, sortDeploys } from "../../lib/format/release-table.ts";
import { writeTip } from "../../lib/output.ts";
import { resolveReleaseOrg } from "../../lib/release/target.ts";
import { writeListView } from "../../lib/view/render.ts";
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
  // The deploys are all of them (no paging), so `--json` stays the array it always was.
  const run = { view: RELEASE_DEPLOYS_VIEW, items: deploys, options: undefined, bare: true };
  if (flags.json) return writeListView(this, true, run);
  if (deploys.length === 0) {
    writeTip(
      this,
      `${version} has no deploys. Record one: tracker release deploy ${version} ${org} --env <environment>`,
    );
    return;
  }
  await writeListView(this, false, run);
}
