import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { getCachedOrg, saveOrgs } from "../db/regions.ts";
import { ApiError, AuthError, NetworkError } from "../errors.ts";
import { apiRequest, isTrustedRegionUrl } from "./client.ts";

const OrgLinks = v.object({
  id: v.string(),
  slug: v.string(),
  name: v.optional(v.string()),
  links: v.optional(v.object({ regionUrl: v.optional(v.string()) })),
});

/**
 * The base URL for an organization's API calls: cached region, else looked up on the control host
 * and cached. A service that does not know regions (404, an older self-hosted server) or names an
 * untrusted region falls back to the base URL; an unreachable or failing service (connection
 * errors, 5xx, 429 after the chain's retries) fails here, once, rather than being asked again.
 */
export async function regionUrlForOrg(ctx: TrackerContext, org: string): Promise<string> {
  const base = ctx.settings.baseUrl;
  const cached = getCachedOrg(ctx, org);
  if (cached) return isTrustedRegionUrl(base, cached.region_url) ? cached.region_url : base;
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
    if (err instanceof AuthError || err instanceof NetworkError) throw err;
    if (err instanceof ApiError && (err.status === 429 || err.status >= 500)) throw err;
    ctx.log.debug(`Region lookup for ${org} failed; using ${base}`);
    return base;
  }
}
