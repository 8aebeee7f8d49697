/** Requests are paced by the rate-limit headers of earlier answers, before a 429 happens. */
import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { ApiError } from "../../../src/lib/errors.ts";
import { apiRequest } from "../../../src/lib/http/client.ts";
import { MAX_PACING_WAIT_MS } from "../../../src/lib/http/pacing.ts";
import { USER_TOKEN } from "../../fake-api/seed.ts";
import { createTestContext } from "../../helpers/context.ts";
import { useFakeApi } from "../../helpers/fake-api.ts";

// Latency, so requests sent together arrive before any is answered (without it the rounds prove nothing).
const api = useFakeApi({ latencyMs: 40 });
const ORGS = "/api/0/organizations/";
const get = (ctx: ReturnType<typeof createTestContext>["ctx"], path = ORGS) =>
  apiRequest(ctx, { path, schema: v.unknown() });

test("Remaining 0 with an absolute Reset: the next request to that endpoint waits for the reset, others do not", async () => {
  const t = createTestContext({ api, env: { TRACKER_AUTH_TOKEN: USER_TOKEN } });
  const resetAt = Math.floor(t.ctx.now() / 1000) + 7;
  api.inject({
    path: ORGS,
    status: 200,
    body: [],
    headers: { "X-Sentry-Rate-Limit-Remaining": "0", "X-Sentry-Rate-Limit-Reset": String(resetAt) },
  });
  await get(t.ctx);
  expect(t.sleeps).toEqual([]);
  await get(t.ctx, "/api/0/organizations/acme/");
  expect(t.sleeps).toEqual([]);
  await get(t.ctx);
  // The fake clock stands still except for sleeps: exactly the time left until the reset.
  expect(t.sleeps).toEqual([resetAt * 1000 - Date.parse("2026-01-15T12:00:00Z")]);
  expect(api.requests.every((r) => r.status === 200)).toBe(true);
});

test("Remaining above 0, or no headers: no waiting", async () => {
  const t = createTestContext({ api, env: { TRACKER_AUTH_TOKEN: USER_TOKEN } });
  api.inject({
    path: ORGS,
    status: 200,
    body: [],
    headers: { "X-Sentry-Rate-Limit-Remaining": "3", "X-Sentry-Rate-Limit-Reset": "9999999999" },
  });
  await get(t.ctx);
  await get(t.ctx);
  expect(t.sleeps).toEqual([]);
});

test("ConcurrentRemaining 0: later requests to that endpoint go one at a time (a round each)", async () => {
  const t = createTestContext({ api, env: { TRACKER_AUTH_TOKEN: USER_TOKEN } });
  api.inject({
    path: ORGS,
    status: 200,
    body: [],
    headers: { "X-Sentry-Rate-Limit-ConcurrentRemaining": "0" },
  });
  await get(t.ctx);
  await Promise.all([get(t.ctx), get(t.ctx), get(t.ctx)]);
  const rounds = api.requests.map((r) => r.round);
  // Without pacing the three would share one round.
  expect(new Set(rounds).size).toBe(4);
});

describe("a reset far in the future (Remaining 0)", () => {
  const farReset = (t: ReturnType<typeof createTestContext>) => ({
    "X-Sentry-Rate-Limit-Remaining": "0",
    "X-Sentry-Rate-Limit-Reset": String(Math.floor(t.ctx.now() / 1000) + 3600),
  });

  test("is waited for once (60 s, said on stderr), not once per request", async () => {
    const t = createTestContext({ api, env: { TRACKER_AUTH_TOKEN: USER_TOKEN } });
    api.inject({ path: ORGS, status: 200, body: [], headers: farReset(t), times: 3 });
    await get(t.ctx);
    await Promise.all([get(t.ctx), get(t.ctx)]);
    await get(t.ctx);
    expect(t.sleeps).toEqual([MAX_PACING_WAIT_MS]);
    expect(t.stderr()).toBe(
      `The service's rate limit for GET ${ORGS} resets in 3,600 s; waiting 60 s once, then trying again.\n`,
    );
  });

  test("a refusal after that wait ends the run with the service's message", async () => {
    const t = createTestContext({ api, env: { TRACKER_AUTH_TOKEN: USER_TOKEN } });
    const headers = farReset(t);
    api.inject({ path: ORGS, status: 200, body: [], headers });
    api.inject({
      path: ORGS,
      status: 429,
      body: {
        detail: "You are attempting to use this endpoint too frequently. Limit is 40 requests in 1 seconds",
      },
      headers,
    });
    await get(t.ctx);
    const err = await get(t.ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(429);
    expect((err as ApiError).format()).toContain("You are attempting to use this endpoint too frequently");
    expect(t.sleeps).toEqual([MAX_PACING_WAIT_MS]);
    expect(api.requestsTo(ORGS)).toHaveLength(2);
  });
});
