import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { listRegionUrls } from "../../../src/lib/api/organizations.ts";
import { getCachedOrg, saveOrgs } from "../../../src/lib/db/regions.ts";
import { AuthError } from "../../../src/lib/errors.ts";
import { apiRequest, isTrustedRegionUrl } from "../../../src/lib/http/client.ts";
import { regionUrlForOrg } from "../../../src/lib/http/region.ts";
import { faults } from "../../fake-api/http.ts";
import { USER_TOKEN } from "../../fake-api/seed.ts";
import { createTestContext } from "../../helpers/context.ts";
import { useFakeApi } from "../../helpers/fake-api.ts";

const api = useFakeApi();

const setup = (env: Record<string, string> = {}) =>
  createTestContext({ api, env: { TRACKER_AUTH_TOKEN: USER_TOKEN, ...env } });

/** Serves `GET /organizations/<org>/` on the control host with a chosen regionUrl. */
function orgAnswer(slug: string, regionUrl: string) {
  api.inject({
    host: "control",
    path: `/api/0/organizations/${slug}/`,
    status: 200,
    body: {
      id: "100001",
      slug,
      name: "Acme Inc.",
      links: { organizationUrl: `https://${slug}.sentry.io`, regionUrl },
    },
  });
}

describe("org-scoped calls go to the org's region", () => {
  test("lookup on the control host, cached in the DB, then every call goes to the region listener", async () => {
    const t = setup();
    const first = await apiRequest(t.ctx, {
      path: "/api/0/organizations/globex/projects/",
      host: { org: "globex" },
      schema: v.array(v.object({ slug: v.string() })),
    });
    expect(first.data.map((p) => p.slug)).toContain("web");
    expect(api.requests.map((r) => `${r.host} ${r.path}`)).toEqual([
      "control /api/0/organizations/globex/",
      "de /api/0/organizations/globex/projects/",
    ]);
    expect(getCachedOrg(t.ctx, "globex")).toEqual({
      slug: "globex",
      org_id: "100002",
      name: "Globex Corporation",
      region_url: api.urls.de,
    });
    // The numeric id finds the same cache row (a DSN's o100002).
    expect(getCachedOrg(t.ctx, "100002")?.slug).toBe("globex");

    api.reset();
    await apiRequest(t.ctx, {
      path: "/api/0/organizations/globex/",
      host: { org: "globex" },
      schema: v.unknown(),
    });
    expect(api.requests.map((r) => `${r.host} ${r.path}`)).toEqual(["de /api/0/organizations/globex/"]);
  });

  test("the cache survives across contexts sharing a config dir (separate CLI runs)", async () => {
    const a = setup();
    expect(await regionUrlForOrg(a.ctx, "acme")).toBe(api.urls.us);
    const b = createTestContext({ api, configDir: a.ctx.configDir, env: { TRACKER_AUTH_TOKEN: USER_TOKEN } });
    api.reset();
    expect(await regionUrlForOrg(b.ctx, "acme")).toBe(api.urls.us);
    expect(api.requests).toEqual([]);
  });

  test("a region on another port of the same host is trusted (the fake's own layout)", () => {
    expect(isTrustedRegionUrl("http://127.0.0.1:8800", "http://127.0.0.1:8801")).toBe(true);
  });
});

describe("untrusted region URLs are ignored (API.md §1.3)", () => {
  for (const [label, region] of [
    ["another hostname", "http://localhost:9000"],
    ["another domain", "https://us.sentry.io"],
    ["another scheme", "https://127.0.0.1:9443"],
  ] as const) {
    test(`${label}: ${region} → calls go to the base URL and the token never leaves it`, async () => {
      const t = setup();
      orgAnswer("acme", region);
      expect(await regionUrlForOrg(t.ctx, "acme")).toBe(api.url);
      expect(getCachedOrg(t.ctx, "acme")?.region_url).toBe(api.url);
      api.reset();
      await apiRequest(t.ctx, {
        path: "/api/0/organizations/acme/",
        host: { org: "acme" },
        schema: v.unknown(),
      });
      expect(api.requests.map((r) => r.host)).toEqual(["control"]);
    });
  }

  test("an untrusted URL already in the cache is not used", async () => {
    const t = setup();
    saveOrgs(t.ctx, [
      { slug: "acme", org_id: "100001", name: "Acme", region_url: "https://evil.example.com" },
    ]);
    expect(await regionUrlForOrg(t.ctx, "acme")).toBe(api.url);
    expect(api.requests).toEqual([]);
  });

  test("hosted base: only https sentry.io hosts are trusted", () => {
    const base = "https://sentry.io";
    expect(isTrustedRegionUrl(base, "https://us.sentry.io")).toBe(true);
    expect(isTrustedRegionUrl(base, "https://de.sentry.io/")).toBe(true);
    expect(isTrustedRegionUrl(base, "http://us.sentry.io")).toBe(false);
    expect(isTrustedRegionUrl(base, "https://us.sentry.io.evil.com")).toBe(false);
    expect(isTrustedRegionUrl(base, "https://evilsentry.io")).toBe(false);
    expect(isTrustedRegionUrl(base, "not a url")).toBe(false);
    expect(isTrustedRegionUrl("https://sentry.example.com", "https://sentry.example.com:8443")).toBe(true);
    expect(isTrustedRegionUrl("https://sentry.example.com", "https://other.example.com")).toBe(false);
  });
});

describe("fallbacks", () => {
  test("404 on the org lookup → base URL, nothing cached", async () => {
    const t = setup();
    expect(await regionUrlForOrg(t.ctx, "nosuch")).toBe(api.url);
    expect(getCachedOrg(t.ctx, "nosuch")).toBeUndefined();
  });

  test("a lookup whose answer lacks links → base URL", async () => {
    const t = setup();
    api.inject({
      host: "control",
      path: "/api/0/organizations/acme/",
      status: 200,
      body: { id: "100001", slug: "acme" },
    });
    expect(await regionUrlForOrg(t.ctx, "acme")).toBe(api.url);
  });

  test("a network failure during the lookup → base URL (after the GET retries)", async () => {
    const t = setup();
    api.inject(faults.gateway(503, { host: "control", path: "/api/0/organizations/acme/", times: 3 }));
    expect(await regionUrlForOrg(t.ctx, "acme")).toBe(api.url);
    expect(t.sleeps).toHaveLength(2);
    expect(getCachedOrg(t.ctx, "acme")).toBeUndefined();
  });

  test("401 during the lookup is an auth problem, not a fallback", async () => {
    const t = setup({ TRACKER_AUTH_TOKEN: "sntryu_wrong" });
    await expect(regionUrlForOrg(t.ctx, "acme")).rejects.toBeInstanceOf(AuthError);
  });

  test("404 from /users/me/regions/ means no region support: the base URL only", async () => {
    const t = setup();
    api.inject({ host: "control", path: "/api/0/users/me/regions/", status: 404, raw: "" });
    expect(await listRegionUrls(t.ctx)).toEqual([api.url]);
  });

  test("/users/me/regions/ lists both region listeners", async () => {
    const t = setup();
    expect(await listRegionUrls(t.ctx)).toEqual([api.urls.de, api.urls.us]);
  });
});
