import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { FAN_OUT_CONCURRENCY, settleLimit } from "../concurrency.ts";
import { cachedRegionUrls, saveOrgs } from "../db/regions.ts";
import { decodeOrgClaim } from "../auth/token-kind.ts";
import { getAuthToken } from "../auth/token.ts";
import { ApiError, AuthError } from "../errors.ts";
import { apiRequest, isTrustedRegionUrl } from "../http/client.ts";
import { fetchAllPages } from "../http/paginate.ts";

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
 * Region base URLs to query: the user's regions (trusted ones only), or the base URL when the
 * server has no region support (404). Org auth tokens cannot call region discovery: their claim
 * names the region. A 403 is surfaced, as API.md 1.3 requires.
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
    return urls.length > 0 ? [...new Set(urls)] : [ctx.settings.baseUrl];
  } catch (err) {
    // Org-bound OAuth tokens are refused here but can still list their own organization.
    if (err instanceof AuthError && err.message.includes("bound to another organization"))
      return [ctx.settings.baseUrl];
    if (err instanceof ApiError && err.status === 404) return [ctx.settings.baseUrl];
    throw err;
  }
}

type Listed = PromiseSettledResult<{ org: Organization; region: string }[]>;

/** The organizations of each region, fetched in parallel (a failing region is a rejected entry). */
function listInRegions(ctx: TrackerContext, regions: readonly string[]): Promise<Listed[]> {
  return settleLimit(regions, FAN_OUT_CONCURRENCY, (region) =>
    fetchAllPages(ctx, {
      path: "/api/0/organizations/",
      host: { baseUrl: region },
      schema: v.array(Organization),
    }).then((orgs) => orgs.map((o) => ({ org: o, region }))),
  );
}

/**
 * The listings of every region. Warm (regions known from the cache of an earlier listing, and not
 * `fresh`): those regions are listed while region discovery re-checks the set, all in one round
 * trip; a region discovery names that was not known costs a second one. Cold: discovery first.
 */
async function listEveryRegion(ctx: TrackerContext, fresh: boolean): Promise<Listed[]> {
  // Credentials first: without them nothing is asked, and their problems come before the cache's.
  await getAuthToken(ctx);
  const known = fresh
    ? []
    : cachedRegionUrls(ctx).filter(
        (url) => url === ctx.settings.baseUrl || isTrustedRegionUrl(ctx.settings.baseUrl, url),
      );
  if (known.length === 0) return listInRegions(ctx, await listRegionUrls(ctx));
  const [discovered, first] = await Promise.all([
    listRegionUrls(ctx).then(
      (urls) => ({ urls }),
      (error: unknown) => ({ error }),
    ),
    listInRegions(ctx, known),
  ]);
  if ("error" in discovered) {
    if (discovered.error instanceof AuthError) throw discovered.error;
    ctx.log.debug(
      `Region discovery failed; listing the known regions only: ${(discovered.error as Error).message}`,
    );
    return first;
  }
  const added = discovered.urls.filter((url) => !known.includes(url));
  return added.length > 0 ? [...first, ...(await listInRegions(ctx, added))] : first;
}

/** Every organization in every region (fetched in parallel), deduplicated by slug; refreshes the region cache. */
export async function listOrganizations(
  ctx: TrackerContext,
  opts: { fresh?: boolean } = {},
): Promise<Organization[]> {
  const results = await listEveryRegion(ctx, opts.fresh ?? false);
  const bySlug = new Map<string, { org: Organization; region: string }>();
  let firstError: unknown;
  for (const r of results) {
    if (r.status === "fulfilled") for (const item of r.value) bySlug.set(item.org.slug, item);
    else {
      if (r.reason instanceof AuthError) throw r.reason;
      firstError ??= r.reason;
      ctx.log.warn(`A region could not be listed: ${(r.reason as Error).message}`);
    }
  }
  if (bySlug.size === 0 && firstError) throw firstError;
  const orgs = [...bySlug.values()].sort((a, b) => a.org.slug.localeCompare(b.org.slug));
  saveOrgs(
    ctx,
    orgs.map(({ org, region }) => {
      const claimed = org.links?.regionUrl?.replace(/\/+$/, "");
      const url = claimed && isTrustedRegionUrl(ctx.settings.baseUrl, claimed) ? claimed : region;
      return { slug: org.slug, org_id: org.id, name: org.name, region_url: url };
    }),
    true,
  );
  return orgs.map((o) => o.org);
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
