/**
 * One retry budget per request chain (README: at most 3 attempts per GET): a request and the
 * requests made on its behalf (the region lookup of an organization's call) share it, so storms
 * and refused connections cost one retry series, and the command then fails once, naming the host.
 */
import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { getOrganization } from "../../../src/lib/api/organizations.ts";
import { ApiError, NetworkError } from "../../../src/lib/errors.ts";
import { apiRequest } from "../../../src/lib/http/client.ts";
import { MAX_ATTEMPTS } from "../../../src/lib/http/retry.ts";
import { faults } from "../../fake-api/http.ts";
import { USER_TOKEN } from "../../fake-api/seed.ts";
import { createTestContext } from "../../helpers/context.ts";
import { runCli } from "../../helpers/cli.ts";
import { useFakeApi } from "../../helpers/fake-api.ts";

const api = useFakeApi();
const setup = (env: Record<string, string> = {}) =>
  createTestContext({ api, env: { TRACKER_AUTH_TOKEN: USER_TOKEN, ...env } });

function refusedPort(): number {
  const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  const port = closed.port ?? 0;
  closed.stop(true);
  return port;
}

describe("one budget per request chain", () => {
  for (const status of [500, 504] as const) {
    test(`a ${status} storm on an organization's call (region lookup inside): one retry series`, async () => {
      const t = setup();
      api.inject({ status, body: { detail: "boom" }, times: Number.POSITIVE_INFINITY });
      const err = await getOrganization(t.ctx, "globex").catch((e) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).status).toBe(status);
      // The lookup gets the chain's 3 attempts, falls back to the base URL (API.md §1.3), and the
      // request itself then has no retries left: 4 requests and 2 waits, where it used to be 6 and 4.
      expect(api.requests.map((r) => `${r.host} ${r.path}`)).toEqual(
        Array(MAX_ATTEMPTS + 1).fill("control /api/0/organizations/globex/"),
      );
      expect(t.sleeps).toHaveLength(MAX_ATTEMPTS - 1);
    });
  }

  test("a storm that ends during the lookup leaves the request itself no retries", async () => {
    const t = setup();
    // Two 503s spend the budget on the lookup; its third try succeeds; the request then gets one try.
    api.inject(faults.gateway(503, { host: "control", path: "/api/0/organizations/globex/", times: 2 }));
    api.inject(faults.gateway(503, { host: "de", path: "/api/0/organizations/globex/projects/", times: 1 }));
    const err = await apiRequest(t.ctx, {
      path: "/api/0/organizations/globex/projects/",
      host: { org: "globex" },
      schema: v.unknown(),
    }).catch((e) => e);
    expect((err as ApiError).status).toBe(503);
    expect(api.requests.map((r) => `${r.host} ${r.path}`)).toEqual([
      "control /api/0/organizations/globex/",
      "control /api/0/organizations/globex/",
      "control /api/0/organizations/globex/",
      "de /api/0/organizations/globex/projects/",
    ]);
  });

  test("separate requests of one command each get their own budget", async () => {
    const t = setup();
    api.inject(faults.gateway(503, { path: "/api/0/organizations/", times: 2 }));
    await apiRequest(t.ctx, { path: "/api/0/organizations/", schema: v.unknown() });
    api.inject(faults.gateway(503, { path: "/api/0/organizations/", times: 2 }));
    await apiRequest(t.ctx, { path: "/api/0/organizations/", schema: v.unknown() });
    expect(api.requestsTo("/api/0/organizations/")).toHaveLength(2 * MAX_ATTEMPTS);
  });

  test("a refused connection costs one retry series (lookup and request share it), then names the host", async () => {
    const port = refusedPort();
    const t = setup({ TRACKER_URL: `http://127.0.0.1:${port}` });
    const err = await getOrganization(t.ctx, "acme").catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).message).toBe(`Could not connect to 127.0.0.1:${port}: connection refused`);
    expect(t.sleeps).toHaveLength(MAX_ATTEMPTS - 1);
  });

  test("through the CLI: a refused port fails once with exit 31 and one error line", async () => {
    const port = refusedPort();
    const r = await runCli(["org", "view", "acme"], {
      token: USER_TOKEN,
      env: { TRACKER_URL: `http://127.0.0.1:${port}` },
    });
    expect(r.exitCode).toBe(31);
    expect(r.stdout).toBe("");
    expect(r.stderr.match(/^Error: /gm)).toHaveLength(1);
    expect(r.stderr).toContain(`127.0.0.1:${port}`);
  }, 20_000);

  // 90 s lies inside the chain's deadline, so only the cap keeps it from being slept.
  for (const seconds of ["90", "3600"]) {
    test(`a Retry-After above the cap (${seconds} s) is not slept: one request, advice to retry later`, async () => {
      const t = setup();
      api.inject(
        faults.rateLimited({ retryAfter: seconds }, { host: "control", path: "/api/0/organizations/" }),
      );
      const err = await apiRequest(t.ctx, { path: "/api/0/organizations/", schema: v.unknown() }).catch(
        (e) => e,
      );
      expect((err as ApiError).status).toBe(429);
      expect((err as ApiError).format()).toContain(`try again in ${seconds} s`);
      expect(t.sleeps).toEqual([]);
      expect(api.requests).toHaveLength(1);
    });
  }
});
