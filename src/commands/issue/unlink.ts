import type { TrackerContext } from "../../context.ts";
import { integrationPath, listIssueIntegrations, unlinkExternalIssue } from "../../lib/api/issue-links.ts";
import { issueWith } from "../../lib/issue/issue-with.ts";
import { findLink, linkedTickets } from "../../lib/issue/links.ts";
import { writeJson, writeLines, writeTip } from "../../lib/output.ts";
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
    if (flags.json) return writeJson(this, { dryRun: true, requests: [{ method: "DELETE", path }] });
    writeLines(this, `DELETE ${path}`);
    return writeTip(this, "Dry run: nothing was sent.");
  }
  await unlinkExternalIssue(this, org, issue.id, link.integrationId, link.id);
  if (flags.json) return writeJson(this, { issue: issue.shortId, unlinked: link });
  writeLines(this, `Unlinked ${link.key} from ${issue.shortId}.`);
}
