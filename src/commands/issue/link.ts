import type { TrackerContext } from "../../context.ts";
import { integrationPath, linkExternalIssue, listIssueIntegrations } from "../../lib/api/issue-links.ts";
import { issueWith } from "../../lib/issue/issue-with.ts";
import { pickIntegration } from "../../lib/issue/links.ts";
import { writeDryRunView, writeResult } from "../../lib/view/write.ts";
import type { LinkFlags } from "./incident-specs.ts";

/** `tracker issue link <issue> <url>`: links an existing ticket through an issue-tracker integration. */
export default async function issueLink(this: TrackerContext, flags: LinkFlags, ref: string, url: string) {
  const { org, issue, extra } = await issueWith(this, ref, { command: "tracker issue link" }, (org, id) =>
    listIssueIntegrations(this, org, id),
  );
  const integration = pickIntegration(extra, url, flags.integration);
  const integrationId = String(integration.id);
  if (flags.dryRun) {
    const request = {
      method: "PUT" as const,
      path: integrationPath(org, issue.id, integrationId),
      body: { externalIssue: url },
    };
    return writeDryRunView(this, flags.json, { requests: [request] });
  }
  const link = await linkExternalIssue(this, org, issue.id, integrationId, url);
  const provider = integration.provider?.name ?? integration.name;
  writeResult(
    this,
    flags.json,
    { issue: issue.shortId, provider, ...link, id: String(link.id) },
    `Linked ${link.displayName ?? link.key ?? url} to ${issue.shortId} (${provider}, link ${link.id}).`,
  );
}
