import { describe, expect, test } from "bun:test";
import { needsRefresh } from "../../../src/lib/auth/refresh.ts";
import { getAuthToken } from "../../../src/lib/auth/token.ts";
import { readCredentials, type StoredCredentials, writeCredentials } from "../../../src/lib/db/auth.ts";
import { AuthError, NetworkError } from "../../../src/lib/errors.ts";
import { configureOAuth, mintOAuthTokens, TEST_CLIENT_ID } from "../../fake-api/routes/oauth.ts";
import { createTestContext } from "../../helpers/context.ts";
import { useFakeApi } from "../../helpers/fake-api.ts";

const api = useFakeApi({ afterReset: (a) => configureOAuth(a.state) });

const NOW = Date.parse("2026-01-15T12:00:00Z");
const HOUR = 3_600_000;

function creds(c: Partial<StoredCredentials>): StoredCredentials {
  return {
    token: "t",
    refresh_token: "r",
    expires_at: null,
    issued_at: null,
    updated_at: 0,
    kind: "oauth",
    base_url: null,
    user_json: null,
    client_id: null,
    ...c,
  };
}

describe("needsRefresh", () => {
  test("refreshes when less than 10% of the lifetime remains", () => {
    const issued = NOW - 9 * HOUR;
    expect(needsRefresh(creds({ issued_at: issued, expires_at: issued + 10 * HOUR }), NOW)).toBe(false);
    expect(needsRefresh(creds({ issued_at: issued, expires_at: issued + 10 * HOUR }), NOW + 1)).toBe(true);
  });

  test("assumes a 1 h lifetime when the issue time is unknown; never for non-expiring tokens", () => {
    expect(needsRefresh(creds({ expires_at: NOW + 7 * 60_000 }), NOW)).toBe(false);
    expect(needsRefresh(creds({ expires_at: NOW + 5 * 60_000 }), NOW)).toBe(true);
    expect(needsRefresh(creds({ expires_at: null }), NOW)).toBe(false);
  });
});

function seeded(expiresInMs: number) {
  const t = createTestContext({ api, env: { TRACKER_CLIENT_ID: TEST_CLIENT_ID } });
  const pair = mintOAuthTokens(api.state, {});
  writeCredentials(t.ctx, {
    token: pair.accessToken,
    refresh_token: pair.refreshToken,
    expires_at: NOW + expiresInMs,
    issued_at: NOW + expiresInMs - 30 * 24 * HOUR,
    kind: "oauth",
    base_url: api.url,
    user_json: null,
  });
  return { ...t, pair };
}

describe("getAuthToken with stored OAuth credentials", () => {
  test("proactive refresh stores the rotated pair with expiry from expires_in (ms)", async () => {
    const t = seeded(HOUR);
    const tok = await getAuthToken(t.ctx);
    const c = readCredentials(t.ctx);
    expect(tok).toEqual({ token: c?.token as string, source: "stored", refreshable: true });
    expect(c?.token).not.toBe(t.pair.accessToken);
    expect(c?.refresh_token).not.toBe(t.pair.refreshToken);
    expect(c?.expires_at).toBe(NOW + 2_591_999_000);
    expect(c?.issued_at).toBe(NOW);
  });

  test("parallel requests in one process share one refresh", async () => {
    const t = seeded(HOUR);
    const [a, b, c] = await Promise.all([getAuthToken(t.ctx), getAuthToken(t.ctx), getAuthToken(t.ctx)]);
    expect(a.token).toBe(b.token);
    expect(b.token).toBe(c.token);
    expect(api.requestsTo("/oauth/token/")).toHaveLength(1);
  });

  test("a network failure during refresh keeps the credentials", async () => {
    const t = seeded(HOUR);
    api.inject({ path: "/oauth/token/", status: 503, raw: "" });
    const err = await getAuthToken(t.ctx).catch((e) => e);
    expect(err).not.toBeInstanceOf(AuthError);
    expect(readCredentials(t.ctx)?.token).toBe(t.pair.accessToken);
    const t2 = createTestContext({ api, env: { TRACKER_URL: "http://127.0.0.1:1", TRACKER_CLIENT_ID: "x" } });
    writeCredentials(t2.ctx, {
      token: "a".repeat(40),
      refresh_token: "r",
      expires_at: NOW + 60_000,
      issued_at: null,
      kind: "oauth",
      base_url: "http://127.0.0.1:1",
      user_json: null,
    });
    expect(await getAuthToken(t2.ctx).catch((e) => e)).toBeInstanceOf(NetworkError);
    expect(readCredentials(t2.ctx)?.token).toBe("a".repeat(40));
  });

  test("pasted tokens (no refresh token, no expiry) are never refreshed", async () => {
    const t = createTestContext({ api });
    writeCredentials(t.ctx, {
      token: "b".repeat(40),
      refresh_token: null,
      expires_at: null,
      issued_at: NOW,
      kind: "oauth",
      base_url: api.url,
      user_json: null,
    });
    expect(await getAuthToken(t.ctx)).toEqual({
      token: "b".repeat(40),
      source: "stored",
      refreshable: false,
    });
    expect(api.requests).toEqual([]);
  });
});
