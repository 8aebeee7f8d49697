import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { ApiError, AuthError, NetworkError } from "../../../src/lib/errors.ts";
import { scopeHint } from "../../../src/lib/auth/scopes.ts";
import { apiRequest, REQUEST_TIMEOUT_MS } from "../../../src/lib/http/client.ts";
import { backoffMs, MAX_ATTEMPTS, serverWaitMs } from "../../../src/lib/http/retry.ts";
import { NOT_FOUND_HINT, SCOPE_HINT } from "../../../src/lib/http/errors.ts";
import { VERSION } from "../../../src/lib/version.ts";
import { faults } from "../../fake-api/http.ts";
import { USER_TOKEN } from "../../fake-api/seed.ts";
import { type FakeApi, startFakeApi } from "../../fake-api/server.ts";
import { createTestContext, type TestContextOptions } from "../../helpers/context.ts";
import { useFakeApi } from "../../helpers/fake-api.ts";

const api = useFakeApi();

const ORGS_PATH = "/api/0/organizations/";
const Orgs = v.array(v.object({ slug: v.string() }));
const NOW = Date.parse("2026-01-15T12:00:00Z");

function setup(opts: TestContextOptions = {}) {
  return createTestContext({ api, now: NOW, ...opts, env: { TRACKER_AUTH_TOKEN: USER_TOKEN, ...opts.env } });
}

async function listOrgs(t: ReturnType<typeof setup>, extra: { timeoutMs?: number } = {}) {
  return apiRequest(t.ctx, { path: ORGS_PATH, schema: Orgs, ...extra });
}

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected the request to fail");
}

describe("headers", () => {
  test("bearer token, User-Agent tracker/<version> (<os>-<arch>) bun/<v>, no Content-Type on GET", async () => {
    const t = setup();
    const res = await listOrgs(t);
    expect(res.data.map((o) => o.slug)).toEqual(["acme", "globex", "initech"]);
    const [req] = api.requestsTo(ORGS_PATH);
    expect(req?.headers.authorization).toBe(`Bearer ${USER_TOKEN}`);
    const os = process.platform === "win32" ? "windows" : process.platform;
    expect(req?.headers["user-agent"]).toBe(`tracker/${VERSION} (${os}-${process.arch}) bun/${Bun.version}`);
    expect(req?.headers["user-agent"]).toMatch(
      /^tracker\/\d+\.\d+\.\d+\S* \([a-z0-9]+-[a-z0-9]+\) bun\/\d+\.\d+\.\d+/,
    );
    expect(req?.headers["content-type"]).toBeUndefined();
    expect(t.sleeps).toEqual([]);
  });

  test("a JSON body is sent with Content-Type application/json", async () => {
    const t = setup();
    api.inject({
      method: "POST",
      path: "/api/0/organizations/acme/issues/1/autofix/",
      status: 202,
      body: { run_id: 7 },
    });
    const res = await apiRequest(t.ctx, {
      method: "POST",
      path: "/api/0/organizations/acme/issues/1/autofix/",
      json: { step: "root_cause" },
      schema: v.object({ run_id: v.number() }),
    });
    expect(res.data).toEqual({ run_id: 7 });
    const [req] = api.requestsTo(/autofix/, "POST");
    expect(req?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(req?.body ?? "")).toEqual({ step: "root_cause" });
  });
});

describe("retries of GET", () => {
  test("429 with Retry-After in seconds waits that long, then succeeds", async () => {
    const t = setup();
    api.inject(faults.rateLimited({ retryAfter: "3" }, { path: ORGS_PATH }));
    const res = await listOrgs(t);
    expect(res.status).toBe(200);
    expect(t.sleeps).toEqual([3000]);
    expect(api.requestsTo(ORGS_PATH).map((r) => r.status)).toEqual([429, 200]);
  });

  test("Retry-After as an HTTP-date is measured against the clock", async () => {
    const t = setup();
    api.inject(faults.rateLimited({ retryAfter: new Date(NOW + 7000).toUTCString() }, { path: ORGS_PATH }));
    await listOrgs(t);
    expect(t.sleeps).toEqual([7000]);
  });

  test("X-Sentry-Rate-Limit-Reset (Unix seconds) is honoured when no Retry-After is sent", async () => {
    const t = setup();
    api.inject(faults.rateLimited({ resetAt: NOW / 1000 + 5 }, { path: ORGS_PATH }));
    await listOrgs(t);
    expect(t.sleeps).toEqual([5000]);
  });

  test("a reset time in the past falls back to backoff with jitter", async () => {
    const t = setup();
    api.inject(faults.rateLimited({ resetAt: NOW / 1000 - 5 }, { path: ORGS_PATH }));
    await listOrgs(t);
    expect(t.sleeps).toHaveLength(1);
    expect(t.sleeps[0]).toBeGreaterThanOrEqual(500);
    expect(t.sleeps[0]).toBeLessThanOrEqual(1000);
  });

  test("a server wait above the 60 s cap is not waited out: ApiError 429 naming the wait", async () => {
    const t = setup();
    api.inject(faults.rateLimited({ retryAfter: "120" }, { path: ORGS_PATH }));
    const err = await failure(listOrgs(t));
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(429);
    expect((err as ApiError).format()).toBe(
      "Request failed with status 429\n  You are attempting to use this endpoint too frequently. Limit is 40 requests in 1 seconds\n\nRate limited by the service; try again in 120 s.",
    );
    expect(t.sleeps).toEqual([]);
    expect(api.requestsTo(ORGS_PATH)).toHaveLength(1);
  });

  for (const status of [502, 503, 504] as const) {
    test(`${status} is retried with exponential backoff, at most ${MAX_ATTEMPTS} attempts`, async () => {
      const t = setup();
      api.inject(faults.gateway(status, { path: ORGS_PATH, times: 5 }));
      const err = await failure(listOrgs(t));
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).status).toBe(status);
      expect((err as ApiError).exitCode).toBe(30);
      // The HTML page is reduced to its title, not dumped.
      expect((err as ApiError).detail).toMatch(new RegExp(`^${status} `));
      expect(api.requestsTo(ORGS_PATH)).toHaveLength(MAX_ATTEMPTS);
      expect(t.sleeps).toHaveLength(MAX_ATTEMPTS - 1);
      const [first, second] = t.sleeps as [number, number];
      expect(first).toBeGreaterThanOrEqual(500);
      expect(first).toBeLessThanOrEqual(1000);
      expect(second).toBeGreaterThanOrEqual(1000);
      expect(second).toBeLessThanOrEqual(2000);
    });
  }

  test("an empty 502 body shows the status text only", async () => {
    const t = setup();
    api.inject(faults.gateway(502, { path: ORGS_PATH, times: 3, empty: true }));
    const err = (await failure(listOrgs(t))) as ApiError;
    expect(err.format()).toBe("Request failed with status 502");
  });

  test("500 is retried; the final error shows the errorId", async () => {
    const t = setup();
    api.inject(faults.internalError("abc123", { path: ORGS_PATH, times: 3 }));
    const err = (await failure(listOrgs(t))) as ApiError;
    expect(err.format()).toBe("Request failed with status 500\n  Internal Error (error id: abc123)");
    expect(api.requestsTo(ORGS_PATH)).toHaveLength(3);
  });

  test("a recovered 503 returns the data after one wait", async () => {
    const t = setup();
    api.inject(faults.gateway(503, { path: ORGS_PATH, times: 2 }));
    const res = await listOrgs(t);
    expect(res.data).toHaveLength(3);
    expect(api.requestsTo(ORGS_PATH).map((r) => r.status)).toEqual([503, 503, 200]);
    expect(t.sleeps).toHaveLength(2);
  });

  // Bun silently retries an idempotent request once when a reused keep-alive connection is reset,
  // so these tests use a fresh server whose first connection is new: then only our retries count.
  async function withFreshApi(fn: (fresh: FakeApi) => Promise<void>) {
    const fresh = await startFakeApi();
    try {
      await fn(fresh);
    } finally {
      fresh.stop();
    }
  }

  test("a connection reset before the response is retried", async () => {
    await withFreshApi(async (fresh) => {
      const t = createTestContext({ api: fresh, env: { TRACKER_AUTH_TOKEN: USER_TOKEN } });
      fresh.inject(faults.connectionReset({ path: ORGS_PATH }));
      const res = await listOrgs(t);
      expect(res.data).toHaveLength(3);
      expect(fresh.requestsTo(ORGS_PATH)).toHaveLength(2);
      expect(t.sleeps).toHaveLength(1);
    });
  });

  test("connection resets on every attempt end in a NetworkError (exit 31)", async () => {
    await withFreshApi(async (fresh) => {
      const t = createTestContext({ api: fresh, env: { TRACKER_AUTH_TOKEN: USER_TOKEN } });
      fresh.inject(faults.connectionReset({ path: ORGS_PATH, times: Number.POSITIVE_INFINITY }));
      const err = await failure(listOrgs(t));
      expect(err).toBeInstanceOf(NetworkError);
      expect((err as NetworkError).exitCode).toBe(31);
      expect(err.message).toBe(`Could not connect to ${new URL(fresh.url).host}: the connection was reset`);
      expect(t.sleeps).toHaveLength(MAX_ATTEMPTS - 1);
      expect(fresh.requestsTo(ORGS_PATH)).toHaveLength(MAX_ATTEMPTS);
    });
  });

  test("connection refused is retried and then explained", async () => {
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const port = closed.port;
    closed.stop(true);
    const t = setup({ env: { TRACKER_URL: `http://127.0.0.1:${port}` } });
    const err = await failure(listOrgs(t));
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).format()).toBe(
      `Could not connect to 127.0.0.1:${port}: connection refused\n\nCheck your network, proxy settings (HTTPS_PROXY, NO_PROXY) and TRACKER_URL.`,
    );
    expect(t.sleeps).toHaveLength(2);
  });

  test("4xx other than 408/429 is not retried", async () => {
    const t = setup();
    api.inject({ path: ORGS_PATH, status: 400, body: { detail: "Invalid cursor parameter." } });
    const err = (await failure(listOrgs(t))) as ApiError;
    expect(err.format()).toBe("Request failed with status 400\n  Invalid cursor parameter.");
    expect(api.requestsTo(ORGS_PATH)).toHaveLength(1);
    expect(t.sleeps).toEqual([]);
  });

  test("408 is retried", async () => {
    const t = setup();
    api.inject({ path: ORGS_PATH, status: 408, body: { detail: "Request Timeout" } });
    await listOrgs(t);
    expect(api.requestsTo(ORGS_PATH).map((r) => r.status)).toEqual([408, 200]);
  });
});

describe("POST is never retried", () => {
  const AUTOFIX = "/api/0/organizations/acme/issues/1/autofix/";
  const post = (t: ReturnType<typeof setup>) =>
    apiRequest(t.ctx, { method: "POST", path: AUTOFIX, json: {}, schema: v.unknown() });

  test("503", async () => {
    const t = setup();
    api.inject(faults.gateway(503, { method: "POST", path: AUTOFIX, times: 3 }));
    const err = (await failure(post(t))) as ApiError;
    expect(err.status).toBe(503);
    expect(api.requestsTo(AUTOFIX, "POST")).toHaveLength(1);
    expect(t.sleeps).toEqual([]);
  });

  test("429 with Retry-After", async () => {
    const t = setup();
    api.inject(faults.rateLimited({ retryAfter: "1" }, { method: "POST", path: AUTOFIX, times: 3 }));
    const err = (await failure(post(t))) as ApiError;
    expect(err.status).toBe(429);
    expect(err.hint).toBe("Rate limited by the service; try again in 1 s.");
    expect(api.requestsTo(AUTOFIX, "POST")).toHaveLength(1);
  });

  test("a connection reset", async () => {
    const t = setup();
    api.inject(faults.connectionReset({ method: "POST", path: AUTOFIX, times: 3 }));
    expect(await failure(post(t))).toBeInstanceOf(NetworkError);
    expect(api.requestsTo(AUTOFIX, "POST")).toHaveLength(1);
  });

  test("retry: true opts a POST in (the OAuth token poll)", async () => {
    const t = setup();
    api.inject(faults.gateway(503, { method: "POST", path: AUTOFIX }));
    api.inject({ method: "POST", path: AUTOFIX, status: 200, body: { ok: true } });
    const res = await apiRequest(t.ctx, {
      method: "POST",
      path: AUTOFIX,
      json: {},
      retry: true,
      schema: v.unknown(),
    });
    expect(res.data).toEqual({ ok: true });
    expect(api.requestsTo(AUTOFIX, "POST")).toHaveLength(2);
  });
});

describe("status mapping", () => {
  test("401: AuthError invalid (exit 12) with the server's detail, never the token", async () => {
    const t = setup({ env: { TRACKER_AUTH_TOKEN: "sntryu_not-a-real-token" } });
    const err = await failure(listOrgs(t));
    expect(err).toBeInstanceOf(AuthError);
    expect((err as AuthError).reason).toBe("invalid");
    expect((err as AuthError).exitCode).toBe(12);
    expect(err.message).toBe("Authentication failed (token from TRACKER_AUTH_TOKEN): Invalid token");
    expect((err as AuthError).format()).not.toContain("sntryu_not-a-real-token");
    expect(api.requestsTo(ORGS_PATH)).toHaveLength(1);
  });

  test("401 for an org-bound token says so", async () => {
    const t = setup();
    api.inject({ path: ORGS_PATH, status: 401, body: { detail: "Unauthorized organization access." } });
    const err = (await failure(listOrgs(t))) as AuthError;
    expect(err.message).toBe("The token is bound to another organization: Unauthorized organization access.");
  });

  test("403: ApiError with the scope hint of the endpoint (lib/auth/scopes.ts)", async () => {
    const t = setup();
    api.inject({
      path: ORGS_PATH,
      status: 403,
      body: { detail: "You do not have permission to perform this action." },
    });
    const err = (await failure(listOrgs(t))) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.format()).toBe(
      `Request failed with status 403\n  You do not have permission to perform this action.\n\n${scopeHint("GET /api/0/organizations/", { source: "TRACKER_AUTH_TOKEN" })}`,
    );
    expect(err.hint).toContain("GET /api/0/organizations/ needs one of the scopes org:read");
  });

  test("403 with an insufficient_scope challenge names the missing scopes", async () => {
    const t = setup();
    api.inject({
      path: ORGS_PATH,
      status: 403,
      body: { detail: "You do not have permission to perform this action." },
      headers: { "WWW-Authenticate": 'Bearer error="insufficient_scope", scope="org:read event:read"' },
    });
    const err = (await failure(listOrgs(t))) as ApiError;
    expect(err.hint).toBe(`The token lacks the scope(s) org:read, event:read. ${SCOPE_HINT}`);
  });

  test("404 (real route, wrong case): ApiError reminding that slugs are case-sensitive", async () => {
    const t = setup();
    const err = await failure(apiRequest(t.ctx, { path: "/api/0/organizations/ACME/", schema: v.unknown() }));
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).format()).toBe(
      `Request failed with status 404\n  The requested resource does not exist\n\n${NOT_FOUND_HINT}`,
    );
    expect(NOT_FOUND_HINT).toContain("case-sensitive");
    expect(api.requestsTo("/api/0/organizations/ACME/")).toHaveLength(1);
  });

  test("a coded detail object shows its message and code", async () => {
    const t = setup();
    api.inject({
      path: ORGS_PATH,
      status: 401,
      body: { detail: { code: "sso-required", message: "Must login via SSO", extra: {} } },
    });
    const err = (await failure(listOrgs(t))) as AuthError;
    expect(err.message).toBe(
      "Authentication failed (token from TRACKER_AUTH_TOKEN): Must login via SSO (sso-required)",
    );
  });

  test("400 search-query parse error: ApiError (exit 30), the server's reason as its detail", async () => {
    const t = setup();
    api.inject({
      path: ORGS_PATH,
      status: 400,
      body: { detail: 'Error parsing search query: Expected "(" but "x" found at position 3' },
    });
    const err = await failure(listOrgs(t));
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).exitCode).toBe(30);
    expect(err.message).toBe("Request failed with status 400");
    expect((err as ApiError).detail).toBe('Invalid search query: Expected "(" but "x" found at position 3');
    expect((err as ApiError).format()).toStartWith(
      'Request failed with status 400\n  Invalid search query: Expected "(" but "x" found at position 3\n\nCheck the search query',
    );
    expect(api.requestsTo(ORGS_PATH)).toHaveLength(1);
  });

  test("a serializer-style 400 body (field errors) is shown as field: message", async () => {
    const t = setup();
    api.inject({ path: ORGS_PATH, status: 400, body: { statsPeriod: ["Invalid stats_period"] } });
    const err = (await failure(listOrgs(t))) as ApiError;
    expect(err.detail).toBe("statsPeriod: Invalid stats_period");
  });
});

describe("bodies that cannot be used become clear ApiErrors", () => {
  test("an HTML page with status 200 (TRACKER_URL pointing at a web page)", async () => {
    const t = setup();
    api.inject({
      path: ORGS_PATH,
      status: 200,
      raw: "<!doctype html><html><head><title>Sign in · Example</title><script>var x = 1;</script></head><body>Hi</body></html>",
      headers: { "Content-Type": "text/html" },
    });
    const err = (await failure(listOrgs(t))) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.format()).toBe(
      "Unexpected response from GET /api/0/organizations/: not JSON\n  Sign in · Example\n\nCheck that TRACKER_URL points at the service's address.",
    );
    expect(api.requestsTo(ORGS_PATH)).toHaveLength(1);
  });

  test("a truncated JSON body", async () => {
    const t = setup();
    api.inject({
      path: ORGS_PATH,
      status: 200,
      raw: '[{"slug": "acme"}, {"slu',
      headers: { "Content-Type": "application/json" },
    });
    const err = (await failure(listOrgs(t))) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe("Unexpected response from GET /api/0/organizations/: not JSON");
    expect(err.exitCode).toBe(30);
  });

  test("a connection dropped mid-body is retried, then reported as incomplete", async () => {
    const t = setup();
    api.inject({
      path: ORGS_PATH,
      status: 200,
      raw: JSON.stringify([{ slug: "acme" }]),
      disconnect: "mid-body",
      times: 3,
    });
    const err = (await failure(listOrgs(t))) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe(
      "Incomplete response from GET /api/0/organizations/: the connection closed before the body was complete",
    );
    expect(api.requestsTo(ORGS_PATH)).toHaveLength(3);
  });

  test("a connection dropped mid-body once recovers on the retry", async () => {
    const t = setup();
    api.inject({
      path: ORGS_PATH,
      status: 200,
      raw: JSON.stringify([{ slug: "acme" }]),
      disconnect: "mid-body",
    });
    const res = await listOrgs(t);
    expect(res.data).toHaveLength(3);
  });

  test("a JSON body of the wrong shape names the offending field", async () => {
    const t = setup();
    api.inject({ path: ORGS_PATH, status: 200, body: [{ slug: "acme" }, { slug: 42 }] });
    const err = (await failure(listOrgs(t))) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe("Unexpected response from GET /api/0/organizations/");
    expect(err.detail).toStartWith("1.slug: ");
    expect(err.hint).toContain("Check TRACKER_URL");
  });
});

describe("timeouts", () => {
  test("a server slower than timeoutMs: NetworkError (exit 31), not retried", async () => {
    const t = setup();
    api.inject({ path: ORGS_PATH, delayMs: 400 });
    const err = await failure(listOrgs(t, { timeoutMs: 80 }));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toBe(`Request to ${new URL(api.url).host} timed out after 80 ms.`);
    expect((err as NetworkError).exitCode).toBe(31);
    expect(t.sleeps).toEqual([]);
  });

  test("a body that stalls after the headers also times out", async () => {
    const t = setup();
    api.inject({ path: ORGS_PATH, status: 200, body: [], bodyDelayMs: 400 });
    const err = await failure(listOrgs(t, { timeoutMs: 80 }));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toContain("timed out after 80 ms");
  });

  test("the default timeout is 30 s (API.md §1.5)", () => {
    expect(REQUEST_TIMEOUT_MS).toBe(30_000);
  });
});

describe("trace log", () => {
  test("each request and response: method, full URL, status, duration, headers; token redacted", async () => {
    const t = setup({ logLevel: "trace" });
    await apiRequest(t.ctx, { path: ORGS_PATH, query: { per_page: 2 }, schema: Orgs });
    const err = t.stderr();
    const url = `${api.url}${ORGS_PATH}?per_page=2`;
    expect(err).toContain(`[trace] → GET ${url}\n`);
    expect(err).toMatch(new RegExp(`\\[trace\\] ← 200 GET ${url.replace(/[.?]/g, "\\$&")} \\(\\d+ ms\\)\\n`));
    expect(err).toContain("    authorization: [REDACTED]\n");
    expect(err).toContain("    user-agent: tracker/");
    expect(err).toContain("    content-type: application/json");
    expect(err).toContain("    link: <");
    expect(err).not.toContain(USER_TOKEN);
    expect(t.stdout()).toBe("");
  });

  test("a failed attempt and the retry are both logged", async () => {
    const t = setup({ logLevel: "trace" });
    api.inject(faults.gateway(502, { path: ORGS_PATH }));
    await listOrgs(t);
    const err = t.stderr();
    expect(err).toMatch(/← 502 GET \S+ \(\d+ ms\)/);
    expect(err).toMatch(/\[debug\] 502 from \S+; retrying in \d+ ms \(attempt 2\/3\)/);
    expect(err).toMatch(/→ GET \S+ \(attempt 2\/3\)/);
  });

  test("nothing is logged at the default level", async () => {
    const t = setup();
    api.inject(faults.gateway(502, { path: ORGS_PATH }));
    await listOrgs(t);
    expect(t.stderr()).toBe("");
  });
});

describe("backoff arithmetic", () => {
  test("doubles from 1 s, capped at 10 s, jitter within [base/2, base]", () => {
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffMs(a, () => 1))).toEqual([
      1000, 2000, 4000, 8000, 10000, 10000,
    ]);
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffMs(a, () => 0))).toEqual([500, 1000, 2000, 4000, 5000, 5000]);
    for (let i = 0; i < 200; i++) {
      const attempt = 1 + (i % 8);
      const d = backoffMs(attempt);
      const base = Math.min(1000 * 2 ** (attempt - 1), 10_000);
      expect(d).toBeGreaterThanOrEqual(base / 2);
      expect(d).toBeLessThanOrEqual(base);
    }
  });

  test("server waits: Retry-After wins over the reset header", () => {
    const h = new Headers({ "Retry-After": "2", "X-Sentry-Rate-Limit-Reset": String(NOW / 1000 + 30) });
    expect(serverWaitMs(h, NOW)).toBe(2000);
    expect(serverWaitMs(new Headers({ "Retry-After": "0.5" }), NOW)).toBe(500);
    expect(serverWaitMs(new Headers({ "Retry-After": "soon" }), NOW)).toBeUndefined();
    expect(serverWaitMs(new Headers({ "Retry-After": new Date(NOW - 5000).toUTCString() }), NOW)).toBe(0);
    expect(serverWaitMs(new Headers(), NOW)).toBeUndefined();
  });
});
