import { describe, expect, test } from "bun:test";
import authLogout from "../../../src/commands/auth/logout.ts";
import authStatus from "../../../src/commands/auth/status.ts";
import { readCredentials, writeCredentials } from "../../../src/lib/db/auth.ts";
import { configureOAuth, mintOAuthTokens, TEST_CLIENT_ID } from "../../fake-api/routes/oauth.ts";
import { USER_TOKEN } from "../../fake-api/seed.ts";
import { createTestContext } from "../../helpers/context.ts";
import { useFakeApi } from "../../helpers/fake-api.ts";

const api = useFakeApi({ afterReset: (a) => configureOAuth(a.state) });

const NOW = Date.parse("2026-01-15T12:00:00Z");
const DAY = 86_400_000;
const flags = { json: false, verbose: false };

describe("auth status (command)", () => {
  test("stored OAuth login: expiry with time left, refreshable, masked token", async () => {
    const t = createTestContext({ api, env: { TRACKER_CLIENT_ID: TEST_CLIENT_ID } });
    const pair = mintOAuthTokens(api.state);
    writeCredentials(t.ctx, {
      token: pair.accessToken,
      refresh_token: pair.refreshToken,
      expires_at: NOW + 29 * DAY + 3_600_000,
      issued_at: NOW - DAY,
      kind: "oauth",
      base_url: api.url,
      user_json: null,
    });
    await authStatus.call(t.ctx, flags);
    const lines = t.stdout().split("\n");
    expect(lines[0]).toBe(
      `Logged in to ${new URL(api.url).host} as Jane Doe <jane@example.com> (stored login)`,
    );
    expect(lines[1]).toBe(`Source:        stored credentials (${api.url})`);
    expect(lines[2]).toBe(`Token:         ****${pair.accessToken.slice(-4)} (OAuth token)`);
    expect(lines[3]).toBe("Expires:       2026-02-13T13:00:00.000Z (in 29 days, refreshed automatically)");
    expect(t.stdout()).not.toContain(pair.accessToken);
    expect(t.stdout()).not.toContain(pair.refreshToken);
    expect(api.requestsTo("/oauth/token/")).toEqual([]);
  });

  test("environment token: source named, expiry not tracked", async () => {
    const t = createTestContext({ api, env: { TRACKER_AUTH_TOKEN: USER_TOKEN } });
    await authStatus.call(t.ctx, flags);
    const lines = t.stdout().split("\n");
    expect(lines[0]).toBe(
      `Logged in to ${new URL(api.url).host} as Jane Doe <jane@example.com> (TRACKER_AUTH_TOKEN)`,
    );
    expect(lines[1]).toBe("Source:        TRACKER_AUTH_TOKEN environment variable");
    expect(lines[3]).toBe("Expires:       not tracked (environment token)");
    expect(t.stderr()).toBe("");
  });

  test("stored credentials of another service URL: not logged in here, the local state and the way out, nothing sent", async () => {
    const t = createTestContext({ api });
    writeCredentials(t.ctx, {
      token: USER_TOKEN,
      refresh_token: null,
      expires_at: null,
      issued_at: null,
      kind: "user",
      base_url: "https://sentry.io",
      user_json: null,
    });
    const ended = await authStatus.call(t.ctx, flags).catch((e: unknown) => e);
    expect(ended).toMatchObject({ exitCode: 13, reason: "host_scope" });
    expect(t.stdout()).toBe(
      [
        `Not logged in to ${new URL(api.url).host} (the stored login is for https://sentry.io)`,
        "Stored login:  https://sentry.io",
        "Defaults:      none",
        "DSN:           not detected",
        "",
      ].join("\n"),
    );
    expect(t.stderr()).toBe(
      `Run \`tracker auth login\` to log in to ${api.url}, or unset TRACKER_URL to use the login for https://sentry.io.\n`,
    );
    expect(api.requests).toEqual([]);
    const json = createTestContext({ api, configDir: t.ctx.configDir });
    await authStatus.call(json.ctx, { ...flags, json: true }).catch(() => undefined);
    expect(JSON.parse(json.stdout())).toMatchObject({
      authenticated: false,
      reason: "host_scope",
      storedLogin: { baseUrl: "https://sentry.io" },
      token: null,
    });
    // Logout of this URL leaves the other login alone, and says how to remove it.
    const out = createTestContext({ api, configDir: t.ctx.configDir });
    await authLogout.call(out.ctx, { ...flags, all: false });
    expect(out.stdout()).toBe(`No stored login for ${api.url} to remove.\n`);
    expect(out.stderr()).toContain("Stored logins: https://sentry.io");
    expect(readCredentials(out.ctx, "https://sentry.io")?.token).toBe(USER_TOKEN);
    const byUrl = createTestContext({ api, configDir: t.ctx.configDir });
    await authLogout.call(byUrl.ctx, { ...flags, all: false, url: "https://sentry.io/" });
    expect(byUrl.stdout()).toBe("Logged out: removed the stored login for https://sentry.io.\n");
    expect(readCredentials(byUrl.ctx, "https://sentry.io")).toBeUndefined();
  });
});
