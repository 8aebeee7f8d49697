/** Token check: `GET /api/0/auth/` (API.md 8.6). */
import { detail, json } from "../http.ts";
import type { FakeState, Route } from "../types.ts";

/** Routes of this module. */
export const authRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/api/0/auth/",
    hosts: "control",
    scopes: [],
    handler: (req) => {
      const user = req.state.users.find((u) => u.id === req.token?.userId);
      if (!user || req.token?.org) return detail(401, "Invalid token");
      return json({
        ...user,
        avatarUrl: null,
        isActive: true,
        hasPasswordAuth: true,
        dateJoined: "2020-01-01T00:00:00Z",
      });
    },
  },
];

/**
 * Issues an org auth token the way Sentry shapes it (API.md 8.1: `sntrys_` + base64 JSON claim +
 * `_` + secret) and registers it: it reaches only its organization.
 */
export function mintOrgToken(
  state: FakeState,
  org: string,
  scopes: readonly string[] = ["org:read", "project:read", "event:read"],
): string {
  const o = state.orgs.find((x) => x.slug === org);
  const claim = {
    iat: 1767225600.5,
    url: state.urls.control,
    region_url: o ? state.urls[o.region] : null,
    org,
  };
  const payload = Buffer.from(JSON.stringify(claim)).toString("base64");
  const secret = Buffer.from(crypto.getRandomValues(new Uint8Array(32)))
    .toString("base64")
    .replace(/[=_]/g, "");
  const token = `sntrys_${payload}_${secret}`;
  state.tokens.set(token, { userId: undefined, scopes, org, kind: "org" });
  return token;
}
