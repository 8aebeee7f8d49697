import type { TrackerContext } from "../../context.ts";
import { listOrganizations } from "../../lib/api/organizations.ts";
import type { GlobalFlags } from "../../lib/flags.ts";
import { ORG_LIST_VIEW } from "../../lib/format/org-views.ts";
import { writeTip } from "../../lib/output.ts";
import { writeListView } from "../../lib/view/render.ts";

/** `tracker org list`: every organization of the token; `--json` is the array of them. */
export default async function orgList(
  this: TrackerContext,
  flags: GlobalFlags & { fresh: boolean },
): Promise<void> {
  const orgs = await listOrganizations(this, { fresh: flags.fresh });
  const run = { view: ORG_LIST_VIEW, items: orgs, options: undefined, bare: true };
  if (flags.json) return writeListView(this, true, run);
  if (orgs.length === 0) {
    writeTip(this, "No organizations found for this token.");
    return;
  }
  await writeListView(this, false, run);
}
