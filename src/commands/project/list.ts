import type { TrackerContext } from "../../context.ts";
import { listProjects } from "../../lib/api/projects.ts";
import type { GlobalFlags } from "../../lib/flags.ts";
import { formatTable } from "../../lib/format/table.ts";
import { writeJson, writeList, writeListTip, writeTip } from "../../lib/output.ts";
import { resolveOrg, withSlugHint } from "../../lib/resolve/target.ts";
import { quoteWord } from "../../lib/shell-quote.ts";

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
  if (flags.json) return writeJson(this, projects);
  if (projects.length === 0) {
    writeTip(this, `No projects in ${target.org}.`);
    return;
  }
  const rows = projects.map((p) => [p.slug, p.name, p.platform ?? "-"]);
  await writeList(
    this,
    formatTable(
      [{ header: "slug" }, { header: "name", flex: true }, { header: "platform" }],
      rows,
      this.isStdoutTTY ? this.terminalWidth : undefined,
    ),
  );
  writeListTip(this, `Show one: tracker project view ${quoteWord(`${target.org}/`)}<project>`);
}
