/**
 * The real token provider and region resolver, loaded on first use so that commands which never
 * make a request never load authentication or region code.
 */
import type { RegionResolver, TokenProvider } from "../context.ts";

/** Tokens by precedence (TRACKER_AUTH_TOKEN > TRACKER_TOKEN > stored), refreshed when stored. */
export const TOKENS: TokenProvider = {
  current: async (ctx) => (await import("./auth/token.ts")).getAuthToken(ctx),
  afterUnauthorized: async (ctx, used) =>
    (await import("./auth/token.ts")).refreshAfterUnauthorized(ctx, used),
};

/** Organization → region base URL, cached in the local database. */
export const REGIONS: RegionResolver = {
  urlForOrg: async (ctx, org) => (await import("./http/region.ts")).regionUrlForOrg(ctx, org),
  forget: async (ctx, org) => (await import("./db/regions.ts")).forgetOrgRegion(ctx, org),
};
