/**
 * Release endpoints (API.md §18.1, §18.2): listing, one release, its deploys, the organization's
 * repositories and the previous release with commits. Changes are described first as a
 * PlannedRequest (what `--dry-run` prints) and sent by sendPlanned; they are never resent once
 * the server may have acted on them.
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { ApiError, ResolutionError } from "../errors.ts";
import { type ApiResponse, apiRequest, apiRequestDeferred } from "../http/client.ts";
import { fetchAllPages, fetchLimited, type Page } from "../http/paginate.ts";
import { quoteWord } from "../shell-quote.ts";
import type { PlannedRequest } from "../dry-run.ts";

const nullish = <T extends v.GenericSchema>(s: T) => v.nullish(s);

/** A deploy as the deploy endpoints and `lastDeploy` give it. */
export const Deploy = v.looseObject({
  id: v.union([v.string(), v.number()]),
  environment: v.string(),
  dateStarted: nullish(v.string()),
  dateFinished: nullish(v.string()),
  name: nullish(v.string()),
  url: nullish(v.string()),
});
/** A validated deploy. */
export type Deploy = v.InferOutput<typeof Deploy>;

/** A project of a release, with the health block `health=1` adds. */
export const ReleaseProject = v.looseObject({
  id: v.union([v.string(), v.number()]),
  slug: v.string(),
  name: nullish(v.string()),
  platform: nullish(v.string()),
  hasHealthData: nullish(v.boolean()),
  healthData: nullish(
    v.looseObject({
      adoption: nullish(v.number()),
      sessionsAdoption: nullish(v.number()),
      crashFreeSessions: nullish(v.number()),
      crashFreeUsers: nullish(v.number()),
      totalSessions: nullish(v.number()),
      totalUsers: nullish(v.number()),
    }),
  ),
});
/** A validated release project. */
export type ReleaseProject = v.InferOutput<typeof ReleaseProject>;

/** A release (the fields the CLI reads; the rest passes through to --json). */
export const Release = v.looseObject({
  version: v.string(),
  shortVersion: nullish(v.string()),
  status: nullish(v.string()),
  ref: nullish(v.string()),
  url: nullish(v.string()),
  dateCreated: nullish(v.string()),
  dateReleased: nullish(v.string()),
  commitCount: nullish(v.number()),
  lastCommit: nullish(v.looseObject({ id: v.string() })),
  deployCount: nullish(v.number()),
  lastDeploy: nullish(Deploy),
  newGroups: nullish(v.number()),
  firstEvent: nullish(v.string()),
  lastEvent: nullish(v.string()),
  authors: nullish(v.array(v.looseObject({ name: nullish(v.string()), email: nullish(v.string()) }))),
  projects: nullish(v.array(ReleaseProject)),
});
/** A validated release. */
export type Release = v.InferOutput<typeof Release>;

/** A repository connected to the organization. */
export const Repo = v.looseObject({
  id: v.union([v.string(), v.number()]),
  name: v.string(),
  url: nullish(v.string()),
  status: nullish(v.string()),
});
/** A validated repository. */
export type Repo = v.InferOutput<typeof Repo>;

export type { PlannedRequest } from "../dry-run.ts";

/** `/api/0/organizations/{org}/releases/`. */
export function releasesPath(org: string): string {
  return `/api/0/organizations/${encodeURIComponent(org)}/releases/`;
}

/** `/api/0/organizations/{org}/releases/{version}/` (the version percent-encoded: `web%401.2`). */
export function releasePath(org: string, version: string): string {
  return `${releasesPath(org)}${encodeURIComponent(version)}/`;
}

/** A 404 about a release becomes "Release … was not found" (exit 23) with a listing hint. */
export function releaseNotFound(err: unknown, org: string, version: string): unknown {
  if (!(err instanceof ApiError && err.status === 404)) return err;
  return new ResolutionError(
    `Release '${version}'`,
    `was not found in organization '${org}'`,
    `Run \`tracker release list ${quoteWord(`${org}/`)}\` to see its releases (versions are case-sensitive).`,
  );
}

/** Sends a planned change to the org's host; a write is resent only when it cannot have arrived. */
export async function sendPlanned<T>(
  ctx: TrackerContext,
  org: string,
  req: PlannedRequest,
  schema: v.GenericSchema<unknown, T>,
): Promise<ApiResponse<T>> {
  return apiRequest(ctx, {
    method: req.method,
    path: req.path,
    host: { org },
    json: req.body,
    retry: "unsent",
    schema,
  });
}

/** Sort orders of `release list` (API.md §18.1); the session sorts need `flatten=1`. */
export const RELEASE_SORTS = ["date", "sessions", "users", "crash_free_sessions"] as const;
/** A `release list` sort. */
export type ReleaseSort = (typeof RELEASE_SORTS)[number];

/** Options of listReleases: an org-wide listing (optionally one project id) or a project's own. */
export interface ListReleasesOptions {
  org: string;
  /** Numeric project id: the org endpoint filtered to it. */
  projectId?: string;
  /** Project slug without a known id: the project endpoint (date order, no health data). */
  projectSlug?: string;
  limit: number;
  query?: string;
  sort: ReleaseSort;
  cursor?: string;
  /** Sent as repeated `environment=` (API.md §22.2). */
  environments?: readonly string[];
}

/**
 * Releases, newest first (or by the sort), paging (≤ 100 per request) up to the limit. The org
 * endpoint is asked with `health=1`; the project endpoint when only a slug is known, since an
 * org token (`org:ci`) can read releases but not the project to learn its id.
 */
export async function listReleases(ctx: TrackerContext, opts: ListReleasesOptions): Promise<Page<Release>> {
  const byProject = opts.projectSlug !== undefined && opts.projectId === undefined;
  const path = byProject
    ? `/api/0/projects/${encodeURIComponent(opts.org)}/${encodeURIComponent(opts.projectSlug as string)}/releases/`
    : releasesPath(opts.org);
  const sessions = opts.sort !== "date";
  return fetchLimited(opts.limit, opts.cursor, async (size, cursor) => {
    const res = await apiRequestDeferred(ctx, {
      path,
      host: { org: opts.org },
      query: {
        project: opts.projectId,
        query: opts.query,
        environment: opts.environments && opts.environments.length > 0 ? opts.environments : undefined,
        per_page: size,
        cursor,
        ...(byProject ? {} : { sort: opts.sort, health: 1, flatten: sessions ? 1 : undefined }),
      },
      schema: v.array(Release),
    });
    return { rows: () => res.parse(), nextCursor: res.nextCursor };
  });
}

/**
 * A project's numeric id learned from its newest release (the project endpoint, one row): an org
 * token (`org:ci`) may read releases but not the project itself. Undefined when it has none.
 */
export async function projectIdFromReleases(
  ctx: TrackerContext,
  org: string,
  project: string,
): Promise<string | undefined> {
  const page = await listReleases(ctx, { org, projectSlug: project, limit: 1, sort: "date" });
  const found = page.data[0]?.projects?.find((p) => p.slug === project);
  return found ? String(found.id) : undefined;
}

/** One release (with `health=1`); an unknown one is a ResolutionError. */
export async function getRelease(ctx: TrackerContext, org: string, version: string): Promise<Release> {
  try {
    const res = await apiRequest(ctx, {
      path: releasePath(org, version),
      host: { org },
      query: { health: 1 },
      schema: Release,
    });
    return res.data;
  } catch (err) {
    throw releaseNotFound(err, org, version);
  }
}

/** The latest deploy per project and environment of a release (all pages). */
export async function listDeploys(ctx: TrackerContext, org: string, version: string): Promise<Deploy[]> {
  try {
    return await fetchAllPages(ctx, {
      path: `${releasePath(org, version)}deploys/`,
      host: { org },
      schema: v.array(Deploy),
    });
  } catch (err) {
    throw releaseNotFound(err, org, version);
  }
}

/** The repositories connected to the organization (all pages). */
export async function listRepos(ctx: TrackerContext, org: string): Promise<Repo[]> {
  return fetchAllPages(ctx, {
    path: `/api/0/organizations/${encodeURIComponent(org)}/repos/`,
    host: { org },
    schema: v.array(Repo),
  });
}

/**
 * The last commit of the previous release (same projects) that has commits, or undefined when
 * there is none (the endpoint answers `{}`).
 */
export async function previousReleaseCommit(
  ctx: TrackerContext,
  org: string,
  version: string,
): Promise<{ version: string; commit: string } | undefined> {
  try {
    const res = await apiRequest(ctx, {
      path: `${releasePath(org, version)}previous-with-commits/`,
      host: { org },
      schema: v.looseObject({
        version: v.optional(v.string()),
        lastCommit: nullish(v.looseObject({ id: v.string() })),
      }),
    });
    const { version: prev, lastCommit } = res.data;
    return prev && lastCommit ? { version: prev, commit: lastCommit.id } : undefined;
  } catch (err) {
    throw releaseNotFound(err, org, version);
  }
}
