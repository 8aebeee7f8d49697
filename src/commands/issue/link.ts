import type { TrackerContext } from "../../context.ts";
import { integrationPath, linkExternalIssue, listIssueIntegrations } from "../../lib/api/issue-links.ts";
import { issueWith } from "../../lib/issue/issue-with.ts";
import { pickIntegration } from "../../lib/issue/links.ts";
import { jsonText, writeJson, writeLines, writeTip } from "../../lib/output.ts";
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
      method: "PUT",
      path: integrationPath(org, issue.id, integrationId),
      body: { externalIssue: url },
    };
    if (flags.json) return writeJson(this, { dryRun: true, requests: [request] });
    writeLines(this, [`${request.method} ${request.path}`, ...jsonText(request.body, true).split("\n")]);
    return writeTip(this, "Dry run: nothing was sent.");
  }
  const link = await linkExternalIssue(this, org, issue.id, integrationId, url);
  const provider = integration.provider?.name ?? integration.name;
  if (flags.json) return writeJson(this, { issue: issue.shortId, provider, ...link, id: String(link.id) });
  writeLines(
    this,
    `Linked ${link.displayName ?? link.key ?? url} to ${issue.shortId} (${provider}, link ${link.id}).`,
  );
}
