import type { TrackerContext } from "../../context.ts";
import { getRelease, listDeploys } from "../../lib/api/releases.ts";
import { RELEASE_VIEW } from "../../lib/format/release-view.ts";
import { resolveReleaseOrg } from "../../lib/release/target.ts";
import { writeDocView } from "../../lib/view/render.ts";
import type { ReleaseReadFlags } from "./index.ts";

/** `tracker release view <version> [<org>]`: the release and its deploys, asked at once. */
export default async function releaseView(
  this: TrackerContext,
  flags: ReleaseReadFlags,
  version: string,
  target?: string,
): Promise<void> {
  const org = await resolveReleaseOrg(this, target, "tracker release view <version>");
  const deploysAsked = listDeploys(this, org, version);
  // The release's answer decides the outcome; a failed deploy listing must not surface unhandled.
  deploysAsked.catch(() => {});
  const release = await getRelease(this, org, version);
  const deploys = await deploysAsked;
  await writeDocView(this, flags.json, RELEASE_VIEW, { release, deploys, org });
}
