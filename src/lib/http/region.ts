import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { decodeOrgClaim } from "../auth/token-kind.ts";
import { getCachedOrg, saveOrgs } from "../db/regions.ts";
import { getServiceFact, setServiceFact } from "../db/service-facts.ts";
import { isHostedUrl } from "../env.ts";
import { ApiError, AuthError } from "../errors.ts";
import { apiRequest, isTrustedRegionUrl } from "./client.ts";

const OrgLinks = v.object({
  id: v.string(),
  slug: v.string(),
  name: v.optional(v.string()),
  links: v.optional(v.object({ regionUrl: v.optional(v.string()) })),
});

/**
 * The base URL for an organization's API calls: cached region, else looked up on the control host
 * and cached; any non-auth failure or an untrusted region falls back to the base URL (API.md
 * §1.3). The lookup runs inside its request's chain: when it spent the retries, the request that
 * follows gets one attempt, so a failing host costs one retry series, not two.
 */
export async function regionUrlForOrg(ctx: TrackerContext, org: string): Promise<string> {
  const base = ctx.settings.baseUrl;
  const cached = getCachedOrg(ctx, org);
  if (cached) return isTrustedRegionUrl(base, cached.region_url) ? cached.region_url : base;
  // An org token names its organization's region itself: no lookup (which its scopes often forbid).
  const claimed = await claimedRegion(ctx, org);
  if (claimed) return claimed;
  if (lookupUnavailable(ctx, org)) return base;
  // Requests for the same organization sent together share one lookup.
  const key = `region:${org}`;
  const pending = ctx.inFlight.get(key) as Promise<string> | undefined;
  if (pending) return pending;
  const lookup = lookUpRegion(ctx, org, base).finally(() => ctx.inFlight.delete(key));
  ctx.inFlight.set(key, lookup);
  return lookup;
}

/** The trusted region an org token's claim gives for `org` (its own organization), if any. */
async function claimedRegion(ctx: TrackerContext, org: string): Promise<string | undefined> {
  let token: string;
  try {
    token = (await ctx.tokens.current(ctx)).token;
  } catch {
    return undefined;
  }
  const claim = decodeOrgClaim(token);
  const region = claim?.org === org ? claim.region_url?.replace(/\/+$/, "") : undefined;
  return region && isTrustedRegionUrl(ctx.settings.baseUrl, region) ? region : undefined;
}

async function lookUpRegion(ctx: TrackerContext, org: string, base: string): Promise<string> {
  try {
    const res = await apiRequest(ctx, {
      path: `/api/0/organizations/${encodeURIComponent(org)}/`,
      host: "control",
      schema: OrgLinks,
    });
    const region = res.data.links?.regionUrl?.replace(/\/+$/, "");
    const trusted = region && isTrustedRegionUrl(base, region) ? region : base;
    if (region && trusted !== region) ctx.log.debug(`Ignoring untrusted region URL ${region} for ${org}`);
    saveOrgs(ctx, [
      { slug: res.data.slug, org_id: res.data.id, name: res.data.name ?? null, region_url: trusted },
    ]);
    return trusted;
  } catch (err) {
    if (err instanceof AuthError) throw err;
    if (err instanceof ApiError && err.status === 404) rememberNoLookup(ctx, org);
    ctx.log.debug(`Region lookup for ${org} failed; using ${base}`);
    return base;
  }
}

/** How long a self-hosted server's 404 to the region lookup is believed. */
const NO_LOOKUP_TTL_MS = 24 * 60 * 60 * 1000;
const NO_LOOKUP_FACT = "region-lookup-404";

/**
 * A region lookup that answered 404 is not asked again: for this organization for the rest of
 * the run, and on a self-hosted server (one region; compatible servers without the endpoint answer
 * 404 to every organization) for a day, remembered in the local database.
 */
function rememberNoLookup(ctx: TrackerContext, org: string): void {
  ctx.said.add(`region-404:${org}`);
  if (!isHostedUrl(ctx.settings.baseUrl)) setServiceFact(ctx, NO_LOOKUP_FACT, String(ctx.now()));
}

function lookupUnavailable(ctx: TrackerContext, org: string): boolean {
  if (ctx.said.has(`region-404:${org}`)) return true;
  if (isHostedUrl(ctx.settings.baseUrl)) return false;
  const since = Number(getServiceFact(ctx, NO_LOOKUP_FACT));
  return Number.isFinite(since) && since > 0 && ctx.now() - since < NO_LOOKUP_TTL_MS;
}
