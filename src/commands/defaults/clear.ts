import type { TrackerContext } from "../../context.ts";
import { clearDefaults } from "../../lib/db/defaults.ts";
import type { GlobalFlags } from "../../lib/flags.ts";
import { writeJson, writeLines } from "../../lib/output.ts";

/** `tracker defaults clear`: removes the stored default organization and project. */
export default async function defaultsClear(this: TrackerContext, flags: GlobalFlags): Promise<void> {
  const cleared = clearDefaults(this);
  if (flags.json) return writeJson(this, { cleared });
  writeLines(this, cleared ? "Defaults cleared." : "No defaults were set.");
}
