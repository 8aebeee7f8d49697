import type { TrackerContext } from "../../context.ts";
import { getOrganization } from "../../lib/api/organizations.ts";
import type { GlobalFlags } from "../../lib/flags.ts";
import { writeJson, writeLines } from "../../lib/output.ts";

/** `tracker org view <org>`. */
export default async function orgView(this: TrackerContext, flags: GlobalFlags, org: string): Promise<void> {
  const o = await getOrganization(this, org.trim());
  if (flags.json) return writeJson(this, o);
  writeLines(this, [
    `${o.name} (${o.slug})`,
    `ID:       ${o.id}`,
    `Status:   ${o.status?.id ?? "-"}`,
    `Created:  ${o.dateCreated ?? "-"}`,
    `Region:   ${o.links?.regionUrl ?? "-"}`,
    `URL:      ${o.links?.organizationUrl ?? "-"}`,
  ]);
}
