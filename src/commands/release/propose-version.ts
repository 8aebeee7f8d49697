import type { TrackerContext } from "../../context.ts";
import { proposeVersion } from "../../lib/release/propose.ts";
import { writeResult } from "../../lib/view/write.ts";
import type { ReleaseReadFlags } from "./index.ts";

/** `tracker release propose-version`: the release name for this build, on stdout. */
export default async function releaseProposeVersion(
  this: TrackerContext,
  flags: ReleaseReadFlags,
): Promise<void> {
  const proposed = await proposeVersion(this);
  // The version alone on stdout: scripts take it as it is (`VERSION=$(tracker release propose-version)`).
  writeResult(this, flags.json, proposed, proposed.version);
}
