import type { TrackerContext } from "../../context.ts";
import { listProjects } from "../../lib/api/projects.ts";
import type { GlobalFlags } from "../../lib/flags.ts";
import { PROJECT_LIST_VIEW } from "../../lib/format/project-views.ts";
import { writeListTip, writeTip } from "../../lib/output.ts";
import { resolveOrg, withSlugHint } from "../../lib/resolve/target.ts";
import { quoteWord } from "../../lib/shell-quote.ts";
import { writeListView } from "../../lib/view/render.ts";

/** Flags of `project list`. */
export interface ProjectListFlags extends GlobalFlags {
  readonly fresh: boolean;
}

/** `tracker project list [<org>]`: every project of the organization (all pages). */
export default async function projectList(
  this: TrackerContext,
  flags: ProjectListFlags,
  org?: string,
): Promise<void> {
  const target = await resolveOrg(this, org, { command: "tracker project list", fresh: flags.fresh });
  const projects = await withSlugHint(this, { org: target.org }, () => listProjects(this, target.org));
  const run = { view: PROJECT_LIST_VIEW, items: projects, options: undefined, bare: true };
  if (flags.json) return writeListView(this, true, run);
  if (projects.length === 0) {
    writeTip(this, `No projects in ${target.org}.`);
    return;
  }
  await writeListView(this, false, run);
  writeListTip(this, `Show one: tracker project view ${quoteWord(`${target.org}/`)}<project>`);
}
