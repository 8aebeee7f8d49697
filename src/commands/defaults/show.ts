import type { TrackerContext } from "../../context.ts";
import { readDefaults } from "../../lib/db/defaults.ts";
import type { GlobalFlags } from "../../lib/flags.ts";
import { writeJson, writeLines, writeTip } from "../../lib/output.ts";

/** `tracker defaults` / `defaults show`: the stored defaults, and which env variables override them. */
export default async function defaultsShow(this: TrackerContext, flags: GlobalFlags): Promise<void> {
  const d = readDefaults(this);
  if (flags.json) return writeJson(this, { org: d.org, project: d.project });
  if (!d.org && !d.project) {
    writeLines(this, "No defaults set.");
    writeTip(this, "Set them with: tracker defaults set <org>/<project>");
  } else {
    writeLines(this, [`Organization:  ${d.org ?? "-"}`, `Project:       ${d.project ?? "-"}`]);
  }
  const env = this.settings;
  for (const [name, value] of [
    ["TRACKER_ORG", env.org],
    ["TRACKER_PROJECT", env.project],
  ] as const) {
    if (value) writeTip(this, `${name}=${value} is set and takes precedence over stored defaults.`);
  }
}
