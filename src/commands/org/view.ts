import type { TrackerContext } from "../../context.ts";
import { getOrganization } from "../../lib/api/organizations.ts";
import type { GlobalFlags } from "../../lib/flags.ts";
import { ORG_VIEW } from "../../lib/format/org-views.ts";
import { resolveOrg, withSlugHint } from "../../lib/resolve/target.ts";
import { writeDocView } from "../../lib/view/render.ts";
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
  await writeDocView(this, flags.json, ORG_VIEW, o);
}
