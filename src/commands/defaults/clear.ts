import type { TrackerContext } from "../../context.ts";
import { clearDefaults } from "../../lib/db/defaults.ts";
import { clearProjectDefault, readProjectDefault } from "../../lib/db/project-defaults.ts";
import { writeResult } from "../../lib/view/write.ts";
import { type HereFlags, hereRoot } from "./here.ts";

/**
 * `tracker defaults clear`: removes the stored default organization and project; with `--here`,
 * the default of the project tree around the working directory instead.
 */
export default async function defaultsClear(this: TrackerContext, flags: HereFlags): Promise<void> {
  if (flags.here) {
    const root = readProjectDefault(this, this.cwd)?.root ?? hereRoot(this);
    const cleared = clearProjectDefault(this, root);
    const said = cleared ? `Defaults for ${root} cleared.` : `No defaults were set for ${root}.`;
    return writeResult(this, flags.json, { cleared, root }, said);
  }
  const cleared = clearDefaults(this);
  writeResult(this, flags.json, { cleared }, cleared ? "Defaults cleared." : "No defaults were set.");
}
