import type { TrackerContext } from "../../context.ts";
import { integrationPath, listIssueIntegrations, unlinkExternalIssue } from "../../lib/api/issue-links.ts";
import { issueWith } from "../../lib/issue/issue-with.ts";
import { findLink, linkedTickets } from "../../lib/issue/links.ts";
import { writeDryRunView, writeResult } from "../../lib/view/write.ts";
import type { UnlinkFlags } from "./incident-specs.ts";

/** `tracker issue unlink <issue> <url|link-id>`: removes a ticket link (the ticket itself stays). */
export default async function issueUnlink(
  this: TrackerContext,
  flags: UnlinkFlags,
  ref: string,
  which: string,
) {
  const { org, issue, extra } = await issueWith(this, ref, { command: "tracker issue unlink" }, (org, id) =>
    listIssueIntegrations(this, org, id),
  );
  const link = findLink(linkedTickets(extra), which, issue.shortId);
  if (flags.dryRun) {
    const path = `${integrationPath(org, issue.id, link.integrationId)}?externalIssue=${encodeURIComponent(link.id)}`;
    return writeDryRunView(this, flags.json, { requests: [{ method: "DELETE", path }] });
  }
  await unlinkExternalIssue(this, org, issue.id, link.integrationId, link.id);
  writeResult(
    this,
    flags.json,
    { issue: issue.shortId, unlinked: link },
    `Unlinked ${link.key} from ${issue.shortId}.`,
  );
}
