import type { TrackerContext } from "../../context.ts";
import { listOrganizations } from "../../lib/api/organizations.ts";
import type { GlobalFlags } from "../../lib/flags.ts";
import { formatTable } from "../../lib/format/table.ts";
import { writeJson, writeList, writeTip } from "../../lib/output.ts";

/** `tracker org list`. */
export default async function orgList(
  this: TrackerContext,
  flags: GlobalFlags & { fresh: boolean },
): Promise<void> {
  const orgs = await listOrganizations(this, { fresh: flags.fresh });
  if (flags.json) return writeJson(this, orgs);
  if (orgs.length === 0) {
    writeTip(this, "No organizations found for this token.");
    return;
  }
  const rows = orgs.map((o) => [o.slug, o.name, regionName(o.links?.regionUrl)]);
  await writeList(
    this,
    formatTable(
      [{ header: "slug" }, { header: "name", flex: true }, { header: "region" }],
      rows,
      this.isStdoutTTY ? this.terminalWidth : undefined,
    ),
  );
}

function regionName(url: string | undefined): string {
  if (!url) return "-";
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
