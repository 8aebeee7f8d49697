/**
 * Bodies a hostile or broken server sends: too large (declared or streamed), dripping a byte at a
 * time, and retry waits that would run past the chain's deadline. Each ends in a clear error,
 * bounded in size and time.
 */
import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { ApiError, NetworkError } from "../../../src/lib/errors.ts";
import { apiRequest, MAX_RESPONSE_BYTES } from "../../../src/lib/http/client.ts";
import { chainDeadlineMs } from "../../../src/lib/http/retry.ts";
import { USER_TOKEN } from "../../fake-api/seed.ts";
import { createTestContext } from "../../helpers/context.ts";
import { useFakeApi } from "../../helpers/fake-api.ts";

const api = useFakeApi();
const PATH = "/api/0/organizations/";
const setup = () => createTestContext({ api, env: { TRACKER_AUTH_TOKEN: USER_TOKEN } });
const get = (t: ReturnType<typeof setup>, timeoutMs?: number) =>
  apiRequest(t.ctx, { path: PATH, schema: v.unknown(), ...(timeoutMs ? { timeoutMs } : {}) }).catch((e) => e);

describe("response size cap", () => {
  test(`a streamed body over ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB: ApiError, not retried, nothing parsed`, async () => {
    const t = setup();
    // A JSON string of cap + 1 KiB, sent without Content-Length by a streaming server.
    api.inject({ path: PATH, status: 200, raw: `"${"x".repeat(MAX_RESPONSE_BYTES + 1024)}"` });
    const err = await get(t);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe(
      "Response from GET /api/0/organizations/ is larger than 16 MiB; tracker stopped reading it",
    );
    expect(api.requestsTo(PATH)).toHaveLength(1);
  });

  test("the same body streamed without a Content-Length is stopped at the cap too", async () => {
    const t = setup();
    api.inject({ path: PATH, status: 200, raw: `"${"x".repeat(MAX_RESPONSE_BYTES + 1024)}"`, chunked: true });
    const err = await get(t);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toContain("is larger than 16 MiB");
    expect(api.requestsTo(PATH)).toHaveLength(1);
  });

  test("a body just under the cap is read whole", async () => {
    const t = setup();
    const big = "y".repeat(MAX_RESPONSE_BYTES - 16);
    api.inject({ path: PATH, status: 200, raw: JSON.stringify(big) });
    const res = await get(t);
    expect((res as { data: string }).data).toHaveLength(big.length);
  });
});

describe("deadlines", () => {
  test("a body dripping a byte at a time ends at the request's timeout (NetworkError, exit 31)", async () => {
    const t = setup();
    api.inject({ path: PATH, status: 200, raw: JSON.stringify([{ slug: "acme" }]), dripMs: 40 });
    const started = performance.now();
    const err = await get(t, 300);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).message).toMatch(/timed out after 300 ms/);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  test("waits the server asks for stop once the chain's deadline would pass (one request, no sleep past it)", async () => {
    const t = setup();
    // A 1 s timeout gives the chain 2 s + 60 s; 40 s twice: the first wait fits, the second would not.
    api.inject({
      path: PATH,
      status: 503,
      headers: { "Retry-After": "40" },
      body: { detail: "busy" },
      times: Number.POSITIVE_INFINITY,
    });
    const err = await get(t, 1_000);
    expect((err as ApiError).status).toBe(503);
    expect(chainDeadlineMs(1_000)).toBe(62_000);
    expect(chainDeadlineMs(30_000)).toBe(120_000);
    expect(t.sleeps).toEqual([40_000]);
    expect(api.requestsTo(PATH)).toHaveLength(2);
  });
});
