/** Issue endpoints (API.md section 5): org-scoped search, detail, legacy detail, short-id lookup. */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { apiRequest, apiRequestDeferred } from "../http/client.ts";
import { ActivityField } from "./activity.ts";
import type { FetchedPage } from "../http/paginate.ts";
import { parseServiceUrl } from "../resolve/url.ts";
import { type Window, windowQuery } from "../time-window.ts";

const IssueProject = v.object({
  id: v.optional(v.string()),
  slug: v.string(),
  name: v.optional(v.nullable(v.string())),
  platform: v.optional(v.nullable(v.string())),
});

/** Who an issue is assigned to: a user or a team. */
const Assignee = v.looseObject({
  type: v.optional(v.nullable(v.string())),
  id: v.union([v.string(), v.number()]),
  name: v.optional(v.nullable(v.string())),
  email: v.optional(v.nullable(v.string())),
});

/**
 * An issue as the API sends it: only the fields the CLI uses are kept (a strict-shape object is
 * about twice as fast to validate as a loose one on a cold start); `count` may be a string or a number.
 */
export const ApiIssue = v.object({
  id: v.string(),
  shortId: v.string(),
  title: v.string(),
  culprit: v.optional(v.nullable(v.string())),
  permalink: v.optional(v.nullable(v.string())),
  level: v.optional(v.nullable(v.string())),
  status: v.optional(v.nullable(v.string())),
  isUnhandled: v.optional(v.nullable(v.boolean())),
  count: v.optional(v.nullable(v.union([v.string(), v.number()]))),
  userCount: v.optional(v.nullable(v.number())),
  firstSeen: v.optional(v.nullable(v.string())),
  lastSeen: v.optional(v.nullable(v.string())),
  project: IssueProject,
  metadata: v.optional(v.nullable(v.record(v.string(), v.unknown()))),
  seerFixabilityScore: v.optional(v.nullable(v.number())),
  /**
   * What resolved the issue (inRelease, inNextRelease, inCommit) or what an archive waits for
   * (ignore*). Display-only fields: an odd shape is dropped, never a failed listing.
   */
  statusDetails: v.fallback(v.optional(v.nullable(v.record(v.string(), v.unknown()))), null),
  assignedTo: v.fallback(v.optional(v.nullable(Assignee)), null),
  /** Detail only (absent from lists and short-id lookups): the last 100 activity items, newest first. */
  activity: ActivityField,
  /** Detail only: the release the issue first appeared in (API.md §22.7). */
  firstRelease: v.fallback(v.optional(v.nullable(v.looseObject({ version: v.string() }))), undefined),
});
/** A validated issue from the API. */
export type ApiIssue = v.InferOutput<typeof ApiIssue>;

/** The Issue fields of the spec (section 2), as printed by `--json`; `count` is always a number. */
export interface Issue {
  id: string;
  shortId: string;
  title: string;
  culprit: string;
  permalink: string;
  level: string;
  status: string;
  isUnhandled: boolean;
  count: number;
  userCount: number;
  firstSeen: string | null;
  lastSeen: string | null;
  project: { id?: string; slug: string; name: string; platform?: string };
}

/** Normalises an API issue to the spec's Issue (count as a number, nulls as empty values). */
export function toIssue(a: ApiIssue): Issue {
  const count = typeof a.count === "number" ? a.count : Number.parseInt(a.count ?? "0", 10);
  const project: Issue["project"] = { slug: a.project.slug, name: a.project.name ?? a.project.slug };
  if (a.project.id) project.id = a.project.id;
  if (a.project.platform) project.platform = a.project.platform;
  return {
    id: a.id,
    shortId: a.shortId,
    title: a.title,
    culprit: a.culprit ?? "",
    permalink: a.permalink ?? "",
    level: a.level ?? "unknown",
    status: a.status ?? "unresolved",
    isUnhandled: a.isUnhandled ?? false,
    count: Number.isFinite(count) ? count : 0,
    userCount: a.userCount ?? 0,
    firstSeen: a.firstSeen ?? null,
    lastSeen: a.lastSeen ?? null,
    project,
  };
}

/** Parameters of one issue search page. */
export interface IssueSearch {
  org: string;
  /** Numeric project ids; `["-1"]` = every accessible project. */
  projects: readonly string[];
  query?: string;
  sort: string;
  /** A relative period, or an absolute start/end (time-window.ts). */
  period: Window;
  /** Sent as repeated `environment=` (API.md §22.2). */
  environments?: readonly string[];
  limit: number;
  cursor?: string;
}

/** One search page and, when the server says it (`X-Hits`), how many issues match in all. */
export interface IssueSearchPage extends FetchedPage<ApiIssue> {
  hits?: number;
}

/** The `X-Hits` header as a count; undefined when absent or not a whole number. */
function hitsOf(headers: Headers): number | undefined {
  const raw = headers.get("x-hits");
  const n = raw === null || raw.trim() === "" ? Number.NaN : Number(raw);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** One page of `GET /organizations/{org}/issues/` (limit ≤ 100; the server clamps above). */
export async function searchIssuesPage(ctx: TrackerContext, s: IssueSearch): Promise<IssueSearchPage> {
  const res = await apiRequestDeferred(ctx, {
    path: `/api/0/organizations/${encodeURIComponent(s.org)}/issues/`,
    host: { org: s.org },
    query: {
      project: s.projects,
      // Omitting `query` makes the server filter is:unresolved; pass the user's text through as is.
      query: s.query,
      sort: s.sort,
      ...windowQuery(s.period),
      environment: s.environments && s.environments.length > 0 ? s.environments : undefined,
      limit: Math.min(100, s.limit),
      cursor: s.cursor,
      collapse: ["stats", "lifetime"],
    },
    schema: v.array(ApiIssue),
  });
  // Parsed by the paginator once the next page is requested.
  const hits = hitsOf(res.headers);
  return { rows: () => res.parse(), nextCursor: res.nextCursor, ...(hits === undefined ? {} : { hits }) };
}

/** One issue by numeric id in a known organization. */
export async function getIssue(ctx: TrackerContext, org: string, id: string): Promise<ApiIssue> {
  const res = await apiRequest(ctx, {
    path: `/api/0/organizations/${encodeURIComponent(org)}/issues/${encodeURIComponent(id)}/`,
    host: { org },
    schema: ApiIssue,
  });
  return res.data;
}

/** One issue by numeric id when no organization is known (legacy unscoped route on the base URL). */
export async function getIssueUnscoped(ctx: TrackerContext, id: string): Promise<ApiIssue> {
  const res = await apiRequest(ctx, {
    path: `/api/0/issues/${encodeURIComponent(id)}/`,
    host: "control",
    schema: ApiIssue,
  });
  return res.data;
}

/** The organization slug in an issue permalink (hosted `https://{org}.sentry.io/...` or `/organizations/{org}/`). */
export function orgFromPermalink(permalink: string | null | undefined): string | undefined {
  return permalink ? parseServiceUrl(permalink)?.org : undefined;
}

const ShortIdResult = v.looseObject({
  organizationSlug: v.string(),
  projectSlug: v.string(),
  groupId: v.string(),
  shortId: v.string(),
  group: ApiIssue,
});

/** Resolves a full short id (e.g. WEB-4Y) in one organization. */
export async function lookupShortId(
  ctx: TrackerContext,
  org: string,
  shortId: string,
): Promise<v.InferOutput<typeof ShortIdResult>> {
  const res = await apiRequest(ctx, {
    path: `/api/0/organizations/${encodeURIComponent(org)}/shortids/${encodeURIComponent(shortId.toUpperCase())}/`,
    host: { org },
    schema: ShortIdResult,
  });
  return res.data;
}
