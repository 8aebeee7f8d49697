/**
 * External issue links (API.md §22.6): the organization's issue-tracker integrations with the
 * tickets linked to one issue, linking a ticket by its URL, and removing a link by its link id.
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { apiRequest } from "../http/client.ts";
import { fetchAllPages } from "../http/paginate.ts";

/** A ticket linked to the issue (`externalIssues[]`). */
export const ExternalIssue = v.looseObject({
  id: v.union([v.string(), v.number()]),
  key: v.optional(v.nullable(v.string())),
  url: v.optional(v.nullable(v.string())),
  title: v.optional(v.nullable(v.string())),
  displayName: v.optional(v.nullable(v.string())),
});
/** A validated linked ticket. */
export type ExternalIssue = v.InferOutput<typeof ExternalIssue>;

/** An issue-tracker integration of the organization and what it links to this issue. */
export const IssueIntegration = v.looseObject({
  id: v.union([v.string(), v.number()]),
  name: v.string(),
  domainName: v.optional(v.nullable(v.string())),
  status: v.optional(v.nullable(v.string())),
  provider: v.optional(
    v.nullable(
      v.looseObject({ key: v.optional(v.nullable(v.string())), name: v.optional(v.nullable(v.string())) }),
    ),
  ),
  externalIssues: v.optional(v.nullable(v.array(ExternalIssue))),
});
/** A validated integration. */
export type IssueIntegration = v.InferOutput<typeof IssueIntegration>;

const integrationsPath = (org: string, id: string) =>
  `/api/0/organizations/${encodeURIComponent(org)}/issues/${encodeURIComponent(id)}/integrations/`;

/** The organization's issue-tracker integrations, each with the tickets linked to this issue. */
export async function listIssueIntegrations(
  ctx: TrackerContext,
  org: string,
  id: string,
): Promise<IssueIntegration[]> {
  return fetchAllPages(ctx, {
    path: integrationsPath(org, id),
    host: { org },
    schema: v.array(IssueIntegration),
  });
}

/** The path of one integration of one issue (the link and unlink endpoint). */
export function integrationPath(org: string, id: string, integrationId: string): string {
  return `${integrationsPath(org, id)}${encodeURIComponent(integrationId)}/`;
}

/** What linking answers: the link (its id is what unlinking takes). */
export const CreatedLink = v.looseObject({
  id: v.union([v.string(), v.number()]),
  key: v.optional(v.nullable(v.string())),
  url: v.optional(v.nullable(v.string())),
  integrationId: v.optional(v.nullable(v.union([v.string(), v.number()]))),
  displayName: v.optional(v.nullable(v.string())),
});
/** A validated created link. */
export type CreatedLink = v.InferOutput<typeof CreatedLink>;

/** Links an existing ticket (sent as `externalIssue`, as the reference does with the URL). */
export async function linkExternalIssue(
  ctx: TrackerContext,
  org: string,
  id: string,
  integrationId: string,
  externalIssue: string,
): Promise<CreatedLink> {
  const res = await apiRequest(ctx, {
    method: "PUT",
    path: integrationPath(org, id, integrationId),
    host: { org },
    json: { externalIssue },
    retry: "unsent",
    schema: CreatedLink,
  });
  return res.data;
}

/** Removes a link by its link id (`externalIssues[].id`, not the ticket key). */
export async function unlinkExternalIssue(
  ctx: TrackerContext,
  org: string,
  id: string,
  integrationId: string,
  linkId: string,
): Promise<void> {
  await apiRequest(ctx, {
    method: "DELETE",
    path: integrationPath(org, id, integrationId),
    host: { org },
    query: { externalIssue: linkId },
    retry: "unsent",
    schema: v.unknown(),
  });
}
