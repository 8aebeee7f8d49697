import type { TrackerContext } from "../../context.ts";
import { writeJson, writeLines } from "../../lib/output.ts";
import { proposeVersion } from "../../lib/release/propose.ts";
import type { ReleaseReadFlags } from "./index.ts";

/** `tracker release propose-version`: the release name for this build, on stdout. */
export default async function releaseProposeVersion(
  this: TrackerContext,
  flags: ReleaseReadFlags,
): Promise<void> {
  const proposed = await proposeVersion(this);
  if (flags.json) return writeJson(this, proposed);
  writeLines(this, proposed.version);
}
