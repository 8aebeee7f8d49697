import { describe, expect, test } from "bun:test";
import { writeCredentials } from "../../src/lib/db/auth.ts";
import { configureOAuth, mintOAuthTokens, TEST_CLIENT_ID } from "../fake-api/routes/oauth.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { createTestContext } from "../helpers/context.ts";
import { useFakeApi } from "../helpers/fake-api.ts";
import { dbFileModes } from "../helpers/db-files.ts";

const api = useFakeApi({ afterReset: (a) => configureOAuth(a.state) });

const HOUR_MS = 3_600_000;
const env = { TRACKER_CLIENT_ID: TEST_CLIENT_ID };

interface Row {
  token: string;
  refresh_token: string | null;
  expires_at: number | null;
  issued_at: number | null;
}

function stored(configDir: string): Row | null {
  const { ctx } = createTestContext({ api, configDir });
  try {
    return ctx.store
      .open()
      .query("SELECT token, refresh_token, expires_at, issued_at FROM logins")
      .get() as Row | null;
  } finally {
    ctx.store.close();
  }
}

/** Stores an OAuth login whose token expires `expiresInMs` from now (real clock: the CLI runs for real). */
function seedOAuth(
  configDir: string,
  opts: { expiresInMs: number; serverExpired?: boolean; withRefresh?: boolean },
): { accessToken: string; refreshToken: string } {
  const pair = mintOAuthTokens(api.state, { expired: opts.serverExpired ?? false });
  const { ctx } = createTestContext({ api, configDir });
  const now = Date.now();
  writeCredentials(ctx, {
    token: pair.accessToken,
    refresh_token: opts.withRefresh === false ? null : pair.refreshToken,
    expires_at: now + opts.expiresInMs,
    issued_at: now + opts.expiresInMs - 30 * 24 * HOUR_MS,
    kind: "oauth",
    base_url: api.url,
    user_json: null,
  });
  ctx.store.close();
  return pair;
}

function refreshGrants() {
  return api
    .requestsTo("/oauth/token/", "POST")
    .map((r) => new URLSearchParams(r.body))
    .filter((f) => f.get("grant_type") === "refresh_token");
}

describe("refresh", () => {
  test("proactive: a token with <10% lifetime left is refreshed before the request; both tokens rotate", async () => {
    const configDir = tempDir();
    const old = seedOAuth(configDir, { expiresInMs: HOUR_MS });
    const r = await runCli(["org", "view", "acme", "--json", "--log-level", "trace"], {
      api,
      configDir,
      env,
    });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).slug).toBe("acme");
    const grants = refreshGrants();
    expect(grants).toHaveLength(1);
    expect(grants[0]?.get("refresh_token")).toBe(old.refreshToken);
    expect(grants[0]?.get("client_id")).toBe(TEST_CLIENT_ID);
    expect(grants[0]?.has("scope")).toBe(false);
    // The refresh came first; no API request ever carried the old token.
    expect(api.requests[0]?.path).toBe("/oauth/token/");
    expect(api.requests.filter((q) => q.headers.authorization === `Bearer ${old.accessToken}`)).toEqual([]);
    const row = stored(configDir);
    expect(row?.token).not.toBe(old.accessToken);
    expect(row?.refresh_token).not.toBe(old.refreshToken);
    expect(row?.expires_at).toBeGreaterThan(Date.now() + 29 * 24 * HOUR_MS);
    for (const secret of [old.accessToken, old.refreshToken, row?.token, row?.refresh_token]) {
      expect(r.stdout + r.stderr).not.toContain(secret as string);
    }
    expect(dbFileModes(configDir).every((m) => m === 0o600)).toBe(true);
  });

  test("a token with plenty of lifetime left is not refreshed", async () => {
    const configDir = tempDir();
    const old = seedOAuth(configDir, { expiresInMs: 20 * 24 * HOUR_MS });
    const r = await runCli(["org", "view", "acme", "--json"], { api, configDir, env });
    expect(r.exitCode).toBe(0);
    expect(refreshGrants()).toHaveLength(0);
    expect(stored(configDir)?.token).toBe(old.accessToken);
  });

  test("401 on a stored OAuth token: one forced refresh, one retry", async () => {
    const configDir = tempDir();
    const old = seedOAuth(configDir, { expiresInMs: 20 * 24 * HOUR_MS, serverExpired: true });
    const r = await runCli(["org", "view", "acme", "--json"], { api, configDir, env });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(refreshGrants()).toHaveLength(1);
    const calls = api.requests
      .filter((q) => q.path !== "/oauth/token/")
      .map((q) => `${q.status} ${q.headers.authorization === `Bearer ${old.accessToken}` ? "old" : "new"}`);
    // Region lookup: 401 with the old token, then retried with the new one; then the org itself.
    expect(calls).toEqual(["401 old", "200 new", "200 new"]);
  });

  test("401 again after the refresh: exactly one retry, then AuthError (no loop)", async () => {
    configureOAuth(api.state, { issueExpired: true });
    const configDir = tempDir();
    seedOAuth(configDir, { expiresInMs: 20 * 24 * HOUR_MS, serverExpired: true });
    const r = await runCli(["org", "view", "acme"], { api, configDir, env });
    expect(r.exitCode).toBe(11);
    expect(r.stderr).toStartWith("Error: Authentication expired");
    expect(refreshGrants()).toHaveLength(1);
    expect(api.requests.filter((q) => q.path !== "/oauth/token/").map((q) => q.status)).toEqual([401, 401]);
  });

  test("refresh rejected (invalid_grant): Authentication expired, exit 11, credentials cleared", async () => {
    const configDir = tempDir();
    const old = seedOAuth(configDir, { expiresInMs: 60_000 });
    // Spend the refresh token elsewhere first, so the server no longer knows it.
    await fetch(`${api.url}/oauth/token/`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: old.refreshToken,
        client_id: TEST_CLIENT_ID,
      }).toString(),
    });
    api.reset();
    const r = await runCli(["org", "list"], { api, configDir, env });
    expect(r.exitCode).toBe(11);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "Error: Authentication expired (invalid_grant)\n\nRun `tracker auth login` again.\n",
    );
    expect(refreshGrants()).toHaveLength(1);
    expect(stored(configDir)).toBeNull();
    expect(dbFileModes(configDir).every((m) => m === 0o600)).toBe(true);
  });

  test("expired token without refresh token: 'Session expired and no refresh token available'", async () => {
    const configDir = tempDir();
    seedOAuth(configDir, { expiresInMs: -60_000, withRefresh: false });
    const r = await runCli(["org", "list"], { api, configDir, env });
    expect(r.exitCode).toBe(11);
    expect(r.stderr).toBe(
      "Error: Session expired and no refresh token available\n\nRun `tracker auth login` again.\n",
    );
    expect(api.requests).toEqual([]);
  });

  test("environment tokens are never refreshed: a 401 is final", async () => {
    const pair = mintOAuthTokens(api.state, { expired: true });
    const r = await runCli(["org", "view", "acme"], { api, env, token: pair.accessToken });
    expect(r.exitCode).toBe(12);
    expect(refreshGrants()).toHaveLength(0);
    expect(r.stderr).not.toContain(pair.accessToken);
  });

  test("two processes refreshing at once perform one refresh and both succeed", async () => {
    configureOAuth(api.state, { refreshDelayMs: 400 });
    const configDir = tempDir();
    const old = seedOAuth(configDir, { expiresInMs: HOUR_MS });
    const [a, b] = await Promise.all([
      runCli(["org", "view", "acme", "--json"], { api, configDir, env, subprocess: true }),
      runCli(["org", "view", "globex", "--json"], { api, configDir, env, subprocess: true }),
    ]);
    expect([a.exitCode, b.exitCode]).toEqual([0, 0]);
    expect(a.stderr + b.stderr).toBe("");
    expect(JSON.parse(a.stdout).slug).toBe("acme");
    expect(JSON.parse(b.stdout).slug).toBe("globex");
    expect(refreshGrants()).toHaveLength(1);
    const row = stored(configDir);
    expect(row?.token).not.toBe(old.accessToken);
    const apiCalls = api.requests.filter((q) => q.path !== "/oauth/token/");
    expect(apiCalls.every((q) => q.headers.authorization === `Bearer ${row?.token}`)).toBe(true);
  });
});
