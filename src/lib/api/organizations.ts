import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { FAN_OUT_CONCURRENCY, settleLimit, withDeadline } from "../concurrency.ts";
import { cachedRegionUrls, saveOrgs } from "../db/regions.ts";
import { decodeOrgClaim } from "../auth/token-kind.ts";
import { getAuthToken } from "../auth/token.ts";
import { ApiError, AuthError, NetworkError } from "../errors.ts";
import { REQUEST_TIMEOUT_MS, apiRequest, isTrustedRegionUrl } from "../http/client.ts";
import { API_PAGE_MAX, fetchAllPages } from "../http/paginate.ts";

/** An organization as listed by the API (fields the CLI uses; others pass through). */
export const Organization = v.looseObject({
  id: v.string(),
  slug: v.string(),
  name: v.string(),
  dateCreated: v.optional(v.nullable(v.string())),
  status: v.optional(v.looseObject({ id: v.string() })),
  links: v.optional(
    v.looseObject({ organizationUrl: v.optional(v.string()), regionUrl: v.optional(v.string()) }),
  ),
});
/** A validated organization. */
export type Organization = v.InferOutput<typeof Organization>;

const Regions = v.object({ regions: v.array(v.object({ name: v.string(), url: v.string() })) });

/**
 * Most regions one listing asks. Sentry has a handful (SaaS: two; self-hosted: one); a service
 * naming more is misconfigured or hostile, and asking each costs a request and, when dead, retries.
 */
export const MAX_REGIONS = 10;

/** The first MAX_REGIONS of `urls`; how many were skipped is said once per run. */
function capRegions(ctx: TrackerContext, urls: readonly string[]): string[] {
  if (urls.length <= MAX_REGIONS) return [...urls];
  if (!ctx.said.has("regions-capped")) {
    ctx.said.add("regions-capped");
    ctx.log.warn(
      `The service names ${urls.length} regions; asking the first ${MAX_REGIONS} and skipping ${urls.length - MAX_REGIONS}.`,
    );
  }
  return urls.slice(0, MAX_REGIONS);
}

/**
 * Region base URLs to query: the user's regions (trusted ones only, at most MAX_REGIONS), or the
 * base URL when the server has no region support (404). Org auth tokens cannot call region
 * discovery: their claim names the region. A 403 is surfaced, as API.md 1.3 requires.
 */
export async function listRegionUrls(ctx: TrackerContext): Promise<string[]> {
  const { token } = await getAuthToken(ctx);
  const claim = decodeOrgClaim(token);
  if (claim) {
    const region = claim.region_url?.replace(/\/+$/, "");
    return [region && isTrustedRegionUrl(ctx.settings.baseUrl, region) ? region : ctx.settings.baseUrl];
  }
  try {
    const res = await apiRequest(ctx, { path: "/api/0/users/me/regions/", host: "control", schema: Regions });
    const urls = res.data.regions
      .map((r) => r.url.replace(/\/+$/, ""))
      .filter((u) => isTrustedRegionUrl(ctx.settings.baseUrl, u));
    return urls.length > 0 ? capRegions(ctx, [...new Set(urls)]) : [ctx.settings.baseUrl];
  } catch (err) {
    // Org-bound OAuth tokens are refused here but can still list their own organization.
    if (err instanceof AuthError && err.message.includes("bound to another organization"))
      return [ctx.settings.baseUrl];
    if (err instanceof ApiError && err.status === 404) return [ctx.settings.baseUrl];
    throw err;
  }
}

/** What one region lists: its organizations and how many it has in all (`exact`: counted, not guessed). */
interface RegionListing {
  orgs: Organization[];
  total: number;
  exact: boolean;
}

/** Lists one region's organizations (all of them, or a first page). */
type RegionLister = (ctx: TrackerContext, region: string) => Promise<RegionListing>;

/** One region's outcome: its listing, or why it failed. */
type Listed = { region: string; result: PromiseSettledResult<RegionListing> };

/** Every organization of a region, every page. */
const listAllPages: RegionLister = async (ctx, region) => {
  const orgs = await fetchAllPages(ctx, {
    path: "/api/0/organizations/",
    host: { baseUrl: region },
    schema: v.array(Organization),
  });
  return { orgs, total: orgs.length, exact: true };
};

/** A region's first page of organizations, in the service's order, with the X-Hits total when sent. */
const listFirstPage: RegionLister = async (ctx, region) => {
  const res = await apiRequest(ctx, {
    path: "/api/0/organizations/",
    host: { baseUrl: region },
    query: { per_page: API_PAGE_MAX },
    schema: v.array(Organization),
  });
  const hits = Number(res.headers.get("x-hits") ?? Number.NaN);
  if (Number.isInteger(hits) && hits >= res.data.length) return { orgs: res.data, total: hits, exact: true };
  return { orgs: res.data, total: res.data.length, exact: res.nextCursor === undefined };
};

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * The listings of `regions`, in parallel (at most FAN_OUT_CONCURRENCY at once), each bounded by
 * the client's request timeout however many pages and retries it takes. A failure is an entry.
 */
async function listInRegions(
  ctx: TrackerContext,
  regions: readonly string[],
  lister: RegionLister,
): Promise<Listed[]> {
  const results = await settleLimit(regions, FAN_OUT_CONCURRENCY, (region) =>
    withDeadline(
      lister(ctx, region),
      REQUEST_TIMEOUT_MS,
      () =>
        new NetworkError(
          `Listing the organizations of ${hostOf(region)} took longer than ${REQUEST_TIMEOUT_MS / 1000} s.`,
        ),
    ),
  );
  return results.map((result, i) => ({ region: regions[i] as string, result }));
}

/**
 * The listings of every region. Warm (regions known from the cache of an earlier listing, and not
 * `fresh`): those regions are listed while region discovery re-checks the set, all in one round
 * trip; a region discovery names that was not known costs a second one. Cold: discovery first.
 * At most MAX_REGIONS regions are asked in all.
 */
async function listEveryRegion(ctx: TrackerContext, fresh: boolean, lister: RegionLister): Promise<Listed[]> {
  // Credentials first: without them nothing is asked, and their problems come before the cache's.
  await getAuthToken(ctx);
  const known = fresh
    ? []
    : capRegions(
        ctx,
        cachedRegionUrls(ctx).filter(
          (url) => url === ctx.settings.baseUrl || isTrustedRegionUrl(ctx.settings.baseUrl, url),
        ),
      );
  if (known.length === 0) return listInRegions(ctx, await listRegionUrls(ctx), lister);
  const [discovered, first] = await Promise.all([
    listRegionUrls(ctx).then(
      (urls) => ({ urls }),
      (error: unknown) => ({ error }),
    ),
    listInRegions(ctx, known, lister),
  ]);
  if ("error" in discovered) {
    if (discovered.error instanceof AuthError) throw discovered.error;
    ctx.log.debug(
      `Region discovery failed; listing the known regions only: ${(discovered.error as Error).message}`,
    );
    return first;
  }
  const added = capRegions(ctx, [...new Set([...known, ...discovered.urls])]).filter(
    (url) => !known.includes(url),
  );
  return added.length > 0 ? [...first, ...(await listInRegions(ctx, added, lister))] : first;
}

/** Most failed regions one warning names; the rest are counted. */
const NAMED_FAILURES = 3;

/** One warning line for the regions that failed (the detail of each at debug level). */
function warnFailedRegions(ctx: TrackerContext, failed: readonly { region: string; error: unknown }[]): void {
  const [only] = failed;
  if (!only) return;
  const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
  if (failed.length === 1) {
    ctx.log.warn(`A region could not be listed: ${message(only.error)}`);
    return;
  }
  for (const f of failed) ctx.log.debug(`Region ${f.region} could not be listed: ${message(f.error)}`);
  const named = failed.slice(0, NAMED_FAILURES).map((f) => hostOf(f.region));
  const more = failed.length - named.length;
  ctx.log.warn(
    `${failed.length} regions could not be reached: ${named.join(", ")}${more > 0 ? ` and ${more} more` : ""}.`,
  );
}

/** An organization with the region that listed it. */
type Placed = { org: Organization; region: string };

/**
 * The organizations of the listings in listing order (first listing of a slug wins), how many the
 * regions have in all, and whether that total is exact. Warns once about failed regions; throws an
 * auth failure, or the first failure when no region answered.
 */
function gather(
  ctx: TrackerContext,
  results: readonly Listed[],
): { placed: Placed[]; total: number; exact: boolean } {
  const bySlug = new Map<string, Placed>();
  const failed: { region: string; error: unknown }[] = [];
  let listed = 0;
  let total = 0;
  let exact = true;
  for (const { region, result } of results) {
    if (result.status === "rejected") {
      if (result.reason instanceof AuthError) throw result.reason;
      failed.push({ region, error: result.reason });
      continue;
    }
    listed += result.value.orgs.length;
    total += result.value.total;
    exact &&= result.value.exact;
    for (const org of result.value.orgs) if (!bySlug.has(org.slug)) bySlug.set(org.slug, { org, region });
  }
  warnFailedRegions(ctx, failed);
  if (bySlug.size === 0 && failed[0]) throw failed[0].error;
  // An organization listed by two regions is counted once.
  return { placed: [...bySlug.values()], total: total - (listed - bySlug.size), exact };
}

/** Remembers each organization's region (its own claim when trusted, else the region that listed it). */
function cacheRegions(ctx: TrackerContext, placed: readonly Placed[], replaceAll: boolean): void {
  saveOrgs(
    ctx,
    placed.map(({ org, region }) => {
      const claimed = org.links?.regionUrl?.replace(/\/+$/, "");
      const url = claimed && isTrustedRegionUrl(ctx.settings.baseUrl, claimed) ? claimed : region;
      return { slug: org.slug, org_id: org.id, name: org.name, region_url: url };
    }),
    replaceAll,
  );
}

/**
 * Every organization in every region (at most MAX_REGIONS, fetched in parallel), deduplicated by
 * slug and sorted by it; refreshes the region cache.
 */
export async function listOrganizations(
  ctx: TrackerContext,
  opts: { fresh?: boolean } = {},
): Promise<Organization[]> {
  const { placed } = gather(ctx, await listEveryRegion(ctx, opts.fresh ?? false, listAllPages));
  const orgs = placed.sort((a, b) => a.org.slug.localeCompare(b.org.slug));
  cacheRegions(ctx, orgs, true);
  return orgs.map((o) => o.org);
}

/** The first organizations the service lists, and how many there are. */
export interface OrganizationSample {
  /** Slugs in the service's order: region by region, each region's first page. */
  slugs: string[];
  /** How many organizations there are in all: exact, or a lower bound when `exact` is false. */
  total: number;
  exact: boolean;
}

/**
 * The first page of organizations of each region (one request per region, at most MAX_REGIONS),
 * in the service's order, with the total the service reports: for searches that try only the
 * first few organizations. The organizations seen are added to the region cache.
 */
export async function sampleOrganizations(
  ctx: TrackerContext,
  opts: { fresh?: boolean } = {},
): Promise<OrganizationSample> {
  const { placed, total, exact } = gather(
    ctx,
    await listEveryRegion(ctx, opts.fresh ?? false, listFirstPage),
  );
  cacheRegions(ctx, placed, false);
  return { slugs: placed.map((p) => p.org.slug), total, exact };
}

/** One organization by slug (or numeric id), from its region. */
export async function getOrganization(ctx: TrackerContext, org: string): Promise<Organization> {
  const res = await apiRequest(ctx, {
    path: `/api/0/organizations/${encodeURIComponent(org)}/`,
    host: { org },
    schema: Organization,
  });
  return res.data;
}

/**
 * Most organizations a lookup without an organization (a short ID) tries beyond the detected
 * ones: a token with thousands would otherwise cost a request per organization for one issue.
 */
export const MAX_ORGS_SEARCHED = 25;
