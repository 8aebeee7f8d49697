import type { TrackerContext } from "../../context.ts";
import { clearDefaults } from "../../lib/db/defaults.ts";
import { clearProjectDefault, readProjectDefault } from "../../lib/db/project-defaults.ts";
import { writeJson, writeLines } from "../../lib/output.ts";
import { type HereFlags, hereRoot } from "./here.ts";

/**
 * `tracker defaults clear`: removes the stored default organization and project; with `--here`,
 * the default of the project tree around the working directory instead.
 */
export default async function defaultsClear(this: TrackerContext, flags: HereFlags): Promise<void> {
  if (flags.here) {
    const root = readProjectDefault(this, this.cwd)?.root ?? hereRoot(this);
    const cleared = clearProjectDefault(this, root);
    if (flags.json) return writeJson(this, { cleared, root });
    return writeLines(this, cleared ? `Defaults for ${root} cleared.` : `No defaults were set for ${root}.`);
  }
  const cleared = clearDefaults(this);
  if (flags.json) return writeJson(this, { cleared });
  writeLines(this, cleared ? "Defaults cleared." : "No defaults were set.");
}
