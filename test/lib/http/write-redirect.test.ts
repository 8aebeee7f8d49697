/**
 * A redirect answering a change (POST/PUT/DELETE): fetch would re-send the body to the redirect's
 * target before tracker could see where it went. A change to another origin stops before sending
 * (the second server gets nothing); a same-origin 307 is followed with the same body; a 302 (which
 * fetch turns into a GET) stops.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mintOrgToken } from "../../fake-api/routes/auth.ts";
import { findRelease } from "../../fake-api/routes/releases.ts";
import { type FakeApi, startFakeApi } from "../../fake-api/server.ts";
import { runCli } from "../../helpers/cli.ts";
import { useFakeApi } from "../../helpers/fake-api.ts";

const api = useFakeApi();
let other: FakeApi;
beforeAll(async () => {
  other = await startFakeApi();
});
afterAll(() => other.stop());

const RELEASES = "/api/0/organizations/acme/releases/";
const create = (version: string) =>
  runCli(["release", "create", version, "acme/web"], {
    api,
    token: mintOrgToken(api.state, "acme", ["org:ci"]),
  });

describe("a redirect answering a change", () => {
  test.each([307, 308])(
    "%d to another loopback port: stopped before sending; the other server got nothing",
    async (status) => {
      api.inject({
        path: RELEASES,
        method: "POST",
        status,
        headers: { Location: `${other.url}${RELEASES}` },
      });
      const r = await create(`web@7.0.${status}`);
      expect(r.exitCode).toBe(20);
      expect(r.stderr).toContain(`redirected the request to ${other.url}`);
      expect(other.requests).toEqual([]);
      expect(findRelease(other.state, "acme", `web@7.0.${status}`)).toBeUndefined();
      expect(api.requestsTo(RELEASES, "POST")).toHaveLength(1);
    },
  );

  test("a same-origin 307 is followed once, with the same method and body", async () => {
    api.inject({ path: RELEASES, method: "POST", status: 307, headers: { Location: `${RELEASES}?moved=1` } });
    const r = await create("web@7.1.0");
    expect(r.exitCode).toBe(0);
    const posts = api.requestsTo(RELEASES, "POST");
    expect(posts).toHaveLength(2);
    expect(posts[1]?.query.get("moved")).toBe("1");
    expect(findRelease(api.state, "acme", "web@7.1.0")).toBeDefined();
  });

  test("a 302 stops: the change is not turned into a GET", async () => {
    api.inject({ path: RELEASES, method: "POST", status: 302, headers: { Location: `${RELEASES}?moved=1` } });
    const r = await create("web@7.2.0");
    expect(r.exitCode).toBe(30);
    expect(r.stderr).toContain("redirect (302)");
    expect(api.requests.filter((q) => q.query.get("moved") === "1")).toEqual([]);
    expect(findRelease(api.state, "acme", "web@7.2.0")).toBeUndefined();
  });
});
