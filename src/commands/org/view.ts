import type { TrackerContext } from "../../context.ts";
import { getOrganization } from "../../lib/api/organizations.ts";
import type { GlobalFlags } from "../../lib/flags.ts";
import { writeJson, writeLines } from "../../lib/output.ts";
import { resolveOrg, withSlugHint } from "../../lib/resolve/target.ts";
import { openWeb, webPath } from "../../lib/web.ts";

/** `tracker org view <org>`: the organization object (JSON) or its key facts. */
export default async function orgView(
  this: TrackerContext,
  flags: GlobalFlags & { web: boolean },
  org?: string,
): Promise<void> {
  const target = await resolveOrg(this, org, { command: "tracker org view" });
  if (flags.web) return openWeb(this, target.org, webPath.org(), flags.json);
  const o = await withSlugHint(this, { org: target.org }, () => getOrganization(this, target.org));
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
