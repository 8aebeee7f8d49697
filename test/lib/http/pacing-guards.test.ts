/**
 * Issue 32 §0: pacing keys on the endpoint (method and path), never on the cursor or other query,
 * and `X-Sentry-Rate-Limit-ConcurrentRemaining: 0` really serialises the next requests (the fake
 * answers after a latency, so requests sent together would share a round without pacing).
 */
import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { apiRequest } from "../../../src/lib/http/client.ts";
import { paceKey } from "../../../src/lib/http/pacing.ts";
import { USER_TOKEN } from "../../fake-api/seed.ts";
import { createTestContext } from "../../helpers/context.ts";
import { useFakeApi } from "../../helpers/fake-api.ts";

const api = useFakeApi({ latencyMs: 40 });
const ORGS = "/api/0/organizations/";
const get = (ctx: ReturnType<typeof createTestContext>["ctx"], path = ORGS) =>
  apiRequest(ctx, { path, schema: v.unknown() });

describe("paceKey", () => {
  const rows: [string, string, string][] = [
    ["GET", "https://sentry.io/api/0/organizations/", "GET /api/0/organizations/"],
    ["GET", "https://sentry.io/api/0/organizations/?cursor=0:100:0", "GET /api/0/organizations/"],
    [
      "GET",
      "https://sentry.io/api/0/organizations/?cursor=0:200:0&per_page=100",
      "GET /api/0/organizations/",
    ],
    ["GET", "https://sentry.io/api/0/organizations/#frag", "GET /api/0/organizations/"],
    ["POST", "https://sentry.io/api/0/organizations/", "POST /api/0/organizations/"],
    [
      "GET",
      "https://us.sentry.io/api/0/organizations/acme/issues/?query=is:unresolved",
      "GET /api/0/organizations/acme/issues/",
    ],
    ["GET", "http://127.0.0.1:9000/api/0/projects/acme/web%20app/", "GET /api/0/projects/acme/web%20app/"],
    ["DELETE", "not a url", "DELETE not a url"],
  ];
  for (const [method, url, key] of rows)
    test(`${method} ${url} → ${key}`, () => expect(paceKey(method, url)).toBe(key));
});

describe("pacing guards", () => {
  test("Remaining 0 on one page: the next page of the same endpoint (another cursor) waits for the reset", async () => {
    const t = createTestContext({ api, env: { TRACKER_AUTH_TOKEN: USER_TOKEN } });
    const resetAt = Math.floor(t.ctx.now() / 1000) + 5;
    api.inject({
      path: ORGS,
      status: 200,
      body: [],
      headers: { "X-Sentry-Rate-Limit-Remaining": "0", "X-Sentry-Rate-Limit-Reset": String(resetAt) },
    });
    await get(t.ctx, `${ORGS}?cursor=0:0:0`);
    expect(t.sleeps).toEqual([]);
    await get(t.ctx, `${ORGS}?cursor=0:100:0`);
    expect(t.sleeps).toEqual([resetAt * 1000 - Date.parse("2026-01-15T12:00:00Z")]);
  });

  test("ConcurrentRemaining 0: three requests sent together go one after another (three rounds, not one)", async () => {
    const t = createTestContext({ api, env: { TRACKER_AUTH_TOKEN: USER_TOKEN } });
    api.inject({
      path: ORGS,
      status: 200,
      body: [],
      headers: { "X-Sentry-Rate-Limit-ConcurrentRemaining": "0" },
    });
    await get(t.ctx);
    await Promise.all([get(t.ctx), get(t.ctx), get(t.ctx)]);
    expect(api.requests.map((r) => r.round)).toEqual([1, 2, 3, 4]);
  });

  test("without ConcurrentRemaining 0 the same three share one round (the check above can fail)", async () => {
    const t = createTestContext({ api, env: { TRACKER_AUTH_TOKEN: USER_TOKEN } });
    await get(t.ctx);
    await Promise.all([get(t.ctx), get(t.ctx), get(t.ctx)]);
    expect(api.requests.map((r) => r.round)).toEqual([1, 2, 2, 2]);
  });
});
