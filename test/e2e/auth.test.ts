import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { writeCredentials } from "../../src/lib/db/auth.ts";
import { mintOrgToken } from "../fake-api/routes/auth.ts";
import { configureOAuth, TEST_CLIENT_ID } from "../fake-api/routes/oauth.ts";
import { OAUTH_TOKEN, READ_ONLY_TOKEN, USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { createTestContext } from "../helpers/context.ts";
import { useFakeApi } from "../helpers/fake-api.ts";
import { startFakeApi } from "../fake-api/server.ts";
import { dbFileModes } from "../helpers/db-files.ts";

const api = useFakeApi({ afterReset: (a) => configureOAuth(a.state) });
/** The line `auth login` prints first: which service the login goes to, and why. */
const via = () => `Logging in to ${api.url} (from TRACKER_URL).\n`;

/** Reads the stored login of the fake's URL in a config dir. */
function storedIn(configDir: string) {
  const { ctx } = createTestContext({ api, configDir });
  try {
    return ctx.store
      .open()
      .query(
        "SELECT token, refresh_token, expires_at, kind, base_url, user_json, client_id FROM logins WHERE base_url = ?",
      )
      .get(api.url) as {
      client_id: string | null;
      token: string;
      refresh_token: string | null;
      expires_at: number | null;
      kind: string;
      base_url: string;
      user_json: string | null;
    } | null;
  } finally {
    ctx.store.close();
  }
}

/** Writes credentials into a config dir as a login would have. */
function seed(configDir: string, token: string, extra: { base_url?: string; kind?: string } = {}) {
  const { ctx } = createTestContext({ api, configDir });
  writeCredentials(ctx, {
    token,
    refresh_token: null,
    expires_at: null,
    issued_at: Date.now(),
    kind: extra.kind ?? "user",
    base_url: extra.base_url ?? api.url,
    user_json: null,
  });
  ctx.store.close();
}

describe("auth login --token", () => {
  test("--token X verifies with /api/0/auth/, stores the token host-bound, db mode 600", async () => {
    const configDir = tempDir();
    const r = await runCli(["auth", "login", "--token", USER_TOKEN], { api, configDir });
    expect(r.stderr).toBe(via());
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`Logged in to ${api.url} as Jane Doe <jane@example.com>.\n`);
    expect(api.requests.map((q) => `${q.method} ${q.host} ${q.path} ${q.headers.authorization}`)).toEqual([
      `GET control /api/0/auth/ Bearer ${USER_TOKEN}`,
    ]);
    const row = storedIn(configDir);
    expect(row).toMatchObject({
      token: USER_TOKEN,
      refresh_token: null,
      expires_at: null,
      kind: "user",
      base_url: api.url,
    });
    expect(JSON.parse(row?.user_json ?? "null")).toMatchObject({ id: "12345", email: "jane@example.com" });
    expect(dbFileModes(configDir).length).toBeGreaterThan(0);
    expect(dbFileModes(configDir).every((m) => m === 0o600)).toBe(true);
  });

  test("--token=X works and --json prints one object", async () => {
    const configDir = tempDir();
    const r = await runCli(["auth", "login", `--token=${OAUTH_TOKEN}`, "--json"], { api, configDir });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      authenticated: true,
      method: "token",
      kind: "oauth",
      baseUrl: api.url,
      user: { id: "12345", name: "Jane Doe", username: "jane", email: "jane@example.com" },
      org: null,
      expiresAt: null,
      scopes: null,
      replaced: null,
      otherLogins: [],
    });
    expect(storedIn(configDir)?.token).toBe(OAUTH_TOKEN);
  });

  test("logging in again to the same URL without a terminal replaces the login and says so", async () => {
    const configDir = tempDir();
    await runCli(["auth", "login", "--token", USER_TOKEN], { api, configDir });
    const again = await runCli(["auth", "login", "--token", OAUTH_TOKEN], { api, configDir });
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toBe(
      `${via()}Replaced the previous login to ${api.url} (Jane Doe <jane@example.com>).\n`,
    );
    expect(storedIn(configDir)?.token).toBe(OAUTH_TOKEN);
    const json = await runCli(["auth", "login", "--token", USER_TOKEN, "--json", "--force"], {
      api,
      configDir,
    });
    expect(JSON.parse(json.stdout).replaced).toEqual({ baseUrl: api.url });
  });

  test("a login for another service URL is added next to it, and the note names the other", async () => {
    const configDir = tempDir();
    const { ctx } = createTestContext({ api, configDir });
    writeCredentials(ctx, {
      token: USER_TOKEN,
      refresh_token: null,
      expires_at: null,
      issued_at: null,
      kind: "user",
      base_url: "https://sentry.io",
      user_json: null,
    });
    ctx.store.close();
    const r = await runCli(["auth", "login", "--token", USER_TOKEN], { api, configDir });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe(
      `${via()}Also logged in to https://sentry.io; TRACKER_URL selects which login a command uses (\`tracker auth status\` lists them).\n`,
    );
    expect(storedIn(configDir)?.base_url).toBe(api.url);
    const db = new Database(join(configDir, "tracker.db"), { readonly: true });
    expect(db.query("SELECT base_url FROM logins ORDER BY base_url").all()).toEqual(
      [{ base_url: api.url }, { base_url: "https://sentry.io" }].sort((a, b) =>
        a.base_url.localeCompare(b.base_url),
      ),
    );
    db.close();
  });

  test("bare --token reads the token from piped stdin", async () => {
    const configDir = tempDir();
    const r = await runCli(["auth", "login", "--token"], { api, configDir, stdin: `  ${USER_TOKEN}\n` });
    expect(r.stderr).toBe(via());
    expect(r.exitCode).toBe(0);
    expect(storedIn(configDir)?.token).toBe(USER_TOKEN);
  });

  test("bare --token without a terminal and without stdin data: ValidationError, exit 21", async () => {
    const configDir = tempDir();
    const r = await runCli(["auth", "login", "--token"], { api, configDir, stdin: "" });
    expect(r.exitCode).toBe(21);
    expect(r.stderr).toStartWith("Error: No token given. Pass it as `tracker auth login --token <TOKEN>`");
    expect(api.requests).toEqual([]);
    expect(storedIn(configDir)).toBeNull();
  });

  test("malformed token: AuthError invalid (exit 12) before any request", async () => {
    const r = await runCli(["auth", "login", "--token", "not a token"], { api });
    expect(r.exitCode).toBe(12);
    expect(r.stderr).toStartWith("Error: The token is malformed.\n\nExpected a user auth token (sntryu_…)");
    const short = await runCli(["auth", "login", "--token", "abc123"], { api });
    expect(short.exitCode).toBe(12);
    expect(api.requests).toEqual([]);
  });

  test("token rejected by the server: exit 12, old credentials kept", async () => {
    const configDir = tempDir();
    seed(configDir, READ_ONLY_TOKEN);
    const bad = `sntryu_${"f".repeat(64)}`;
    const r = await runCli(["auth", "login", "--token", bad], { api, configDir });
    expect(r.exitCode).toBe(12);
    expect(r.stderr).toBe(
      `${via()}Error: The token was rejected by ${api.url}; stored credentials were not changed.\n\nCheck that the token is complete and not revoked, and that TRACKER_URL points at the service that issued it.\n`,
    );
    expect(r.stderr + r.stdout).not.toContain(bad);
    expect(storedIn(configDir)?.token).toBe(READ_ONLY_TOKEN);
  });

  test("org token: verified on its organization's region endpoint, not /auth/", async () => {
    const configDir = tempDir();
    const orgToken = mintOrgToken(api.state, "acme");
    const r = await runCli(["auth", "login", "--token", orgToken], { api, configDir });
    expect(r.stderr).toBe(via());
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`Logged in to ${api.url} with an org auth token for acme.\n`);
    expect(api.requests.map((q) => `${q.host} ${q.path}`)).toEqual(["us /api/0/organizations/acme/"]);
    expect(storedIn(configDir)?.kind).toBe("org");
    const s = await runCli(["auth", "status", "--json"], { api, configDir });
    expect(s.exitCode).toBe(0);
    const doc = JSON.parse(s.stdout);
    expect(doc.token.kind).toBe("org");
    expect(doc.user).toBeNull();
    expect(doc.organizations).toEqual([{ slug: "acme", name: "Acme Inc." }]);
    expect(s.stdout + s.stderr).not.toContain(orgToken);
  });
});

describe("auth login --token (more shapes)", () => {
  test("bare --token followed by another flag still reads stdin", async () => {
    const configDir = tempDir();
    const r = await runCli(["auth", "login", "--token", "--json"], { api, configDir, stdin: USER_TOKEN });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).method).toBe("token");
    expect(storedIn(configDir)?.token).toBe(USER_TOKEN);
  });

  test("an org token with only org:ci is accepted (403 is not a rejection) with the scope hint", async () => {
    const configDir = tempDir();
    const ci = mintOrgToken(api.state, "acme", ["org:ci"]);
    const r = await runCli(["auth", "login", "--token", ci], { api, configDir });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toStartWith(
      `${via()}Warning: This org token cannot read organization acme. The token may lack`,
    );
    expect(storedIn(configDir)?.token).toBe(ci);
    const s = await runCli(["auth", "status", "--json"], { api, configDir });
    expect(s.exitCode).toBe(0);
    expect(JSON.parse(s.stdout).organizations).toEqual([{ slug: "acme", name: null }]);
    expect(s.stdout + s.stderr + r.stdout + r.stderr).not.toContain(ci);
  });
});

describe("auth login (device flow, e2e)", () => {
  test("shows the code, polls until approved, stores access + refresh token and expiry", async () => {
    configureOAuth(api.state, {
      interval: 0,
      pollAnswers: ["authorization_pending", "authorization_pending"],
    });
    const configDir = tempDir();
    const before = Date.now();
    const r = await runCli(["auth", "login", "--log-level", "trace"], {
      api,
      configDir,
      env: { TRACKER_CLIENT_ID: TEST_CLIENT_ID },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`Logged in to ${api.url} as Jane Doe <jane@example.com>.\n`);
    expect(r.stderr).toMatch(
      new RegExp(`Open ${api.url}/oauth/device/ and enter the code [B-Z]{4}-[B-Z]{4}\\n`),
    );
    const polls = api.requestsTo("/oauth/token/", "POST");
    expect(polls.map((p) => p.status)).toEqual([400, 400, 200]);
    const row = storedIn(configDir);
    expect(row?.kind).toBe("oauth");
    expect(row?.refresh_token).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.expires_at).toBeGreaterThanOrEqual(before + 2_591_999_000);
    expect(row?.expires_at).toBeLessThanOrEqual(Date.now() + 2_591_999_000);
    // Neither the device code nor the tokens may leak, even in the trace log.
    const deviceCode = new URLSearchParams(polls[0]?.body).get("device_code") as string;
    for (const secret of [deviceCode, row?.token as string, row?.refresh_token as string]) {
      expect(r.stdout + r.stderr).not.toContain(secret);
    }
    expect(dbFileModes(configDir).every((m) => m === 0o600)).toBe(true);
    // The client the refresh token is bound to is remembered with the login.
    expect(row?.client_id).toBe(TEST_CLIENT_ID);
  });

  test("a later refresh uses the login's own client id, without TRACKER_CLIENT_ID in the environment", async () => {
    configureOAuth(api.state, { interval: 0, pollAnswers: [] });
    const configDir = tempDir();
    const login = await runCli(["auth", "login"], {
      api,
      configDir,
      env: { TRACKER_CLIENT_ID: TEST_CLIENT_ID },
    });
    expect(login.exitCode).toBe(0);
    // Make the stored token nearly expired, so the next command refreshes it first.
    const { ctx } = createTestContext({ api, configDir });
    ctx.store
      .open()
      .run("UPDATE logins SET expires_at = ?, issued_at = ?", [
        Date.now() + 60_000,
        Date.now() - 30 * 86_400_000,
      ]);
    ctx.store.close();
    api.reset();
    configureOAuth(api.state);
    const r = await runCli(["org", "view", "acme", "--json"], { api, configDir });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const grant = new URLSearchParams(api.requestsTo("/oauth/token/", "POST")[0]?.body);
    expect(grant.get("grant_type")).toBe("refresh_token");
    expect(grant.get("client_id")).toBe(TEST_CLIENT_ID);
  });

  test("self-hosted without TRACKER_CLIENT_ID: the spec's message, how to fix, no request", async () => {
    const r = await runCli(["auth", "login"], { api });
    expect(r.exitCode).toBe(20);
    expect(r.stderr).toBe(
      `${via()}Error: OAuth requires \`TRACKER_CLIENT_ID\` for self-hosted instances\n\nSuggestion: Create a Public OAuth application at ${api.url}/settings/account/api/applications/ and set TRACKER_CLIENT_ID to its client ID (Sentry 26.1.0 or later). On older servers, create a token at ${api.url}/settings/account/api/auth-tokens/ and run \`tracker auth login --token\`.\n`,
    );
    expect(api.requests).toEqual([]);
  });

  test("server without the device flow (HTML 404): points to auth login --token", async () => {
    api.inject({ path: "/oauth/device/code/", status: 404, raw: "<html><body>Page not found</body></html>" });
    const r = await runCli(["auth", "login"], { api, env: { TRACKER_CLIENT_ID: TEST_CLIENT_ID } });
    expect(r.exitCode).toBe(51);
    expect(r.stderr).toContain("self-hosted servers need version 26.1.0 or later");
    expect(r.stderr).toContain(`run \`tracker auth login --token\``);
  });
});

describe("auth status", () => {
  test("not logged in: the headline, the local state, the way to log in, then exit 10 (status || login)", async () => {
    const host = new URL(api.url).host;
    const human = await runCli(["auth", "status"], { api });
    expect(human).toEqual({
      exitCode: 10,
      stdout: `Not logged in to ${host}\nDefaults:      none\nDSN:           not detected\n`,
      stderr: "Run `tracker auth login` to log in (in CI, set TRACKER_AUTH_TOKEN).\n",
    });
    const json = await runCli(["auth", "status", "--json"], { api });
    expect(json.exitCode).toBe(10);
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { class: "AuthError", code: 10 } });
    expect(JSON.parse(json.stdout)).toEqual({
      authenticated: false,
      reason: "not_authenticated",
      baseUrl: api.url,
      source: null,
      token: null,
      expiresAt: null,
      refreshable: false,
      storedShadowed: false,
      storedLogin: null,
      logins: [],
      user: null,
      organizations: null,
      serviceError: null,
      defaults: { org: null, project: null },
      dsn: null,
    });
    expect(api.requests).toEqual([]);
  });

  test("a rejected token and an unreachable service: still one document, the local state, what failed", async () => {
    const rejected = await runCli(["auth", "status", "--json"], { api, token: "sntryu_".padEnd(71, "0") });
    expect(rejected.exitCode).toBe(12);
    expect(JSON.parse(rejected.stdout)).toMatchObject({
      authenticated: false,
      reason: "invalid",
      source: "TRACKER_AUTH_TOKEN",
    });
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const url = `http://127.0.0.1:${closed.port}`;
    closed.stop(true);
    const down = await runCli(["auth", "status"], { token: USER_TOKEN, env: { TRACKER_URL: url } });
    expect(down.exitCode).toBe(0);
    expect(down.stdout.split("\n")[0]).toBe(
      `Logged in to ${new URL(url).host} (TRACKER_AUTH_TOKEN); not verified: Could not connect to ${new URL(url).host}: connection refused`,
    );
    expect(down.stdout).toContain("Defaults:      none");
  }, 20_000);

  test("human form: source, redacted token, expiry, user, orgs, defaults, DSN slot", async () => {
    const configDir = tempDir();
    seed(configDir, USER_TOKEN);
    const { ctx } = createTestContext({ api, configDir });
    const { writeDefaults } = await import("../../src/lib/db/defaults.ts");
    writeDefaults(ctx, { org: "acme", project: "web" });
    ctx.store.close();
    const r = await runCli(["auth", "status"], { api, configDir });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      [
        `Logged in to ${new URL(api.url).host} as Jane Doe <jane@example.com> (stored login)`,
        `Source:        stored credentials (${api.url})`,
        "Token:         sntryu_****a1a1 (user auth token)",
        "Expires:       never",
        "User:          Jane Doe <jane@example.com>",
        "Organizations: acme, globex, initech",
        `Stored login:  ${api.url} (active)`,
        "Defaults:      acme/web",
        "DSN:           not detected",
        "",
      ].join("\n"),
    );
  });

  test("--json: one object with source; env token shadowing stored credentials is noted once", async () => {
    const configDir = tempDir();
    seed(configDir, READ_ONLY_TOKEN);
    const r = await runCli(["auth", "status", "--json"], {
      api,
      configDir,
      env: { TRACKER_TOKEN: USER_TOKEN },
    });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toEqual({
      authenticated: true,
      reason: null,
      storedLogin: null,
      logins: [{ baseUrl: api.url, kind: "user", user: null, expiresAt: null, active: true }],
      serviceError: null,
      source: "TRACKER_TOKEN",
      baseUrl: api.url,
      token: { kind: "user", redacted: "sntryu_****a1a1" },
      expiresAt: null,
      refreshable: false,
      storedShadowed: true,
      user: { id: "12345", name: "Jane Doe", username: "jane", email: "jane@example.com" },
      organizations: [
        { slug: "acme", name: "Acme Inc." },
        { slug: "globex", name: "Globex Corporation" },
        { slug: "initech", name: "Initech" },
      ],
      defaults: { org: null, project: null },
      dsn: null,
    });
    expect(r.stderr).toBe("Using TRACKER_TOKEN from the environment; stored credentials are ignored.\n");
  });
});

describe("token precedence", () => {
  const sentTokens = () => [...new Set(api.requests.map((q) => q.headers.authorization))];

  test("TRACKER_AUTH_TOKEN beats TRACKER_TOKEN and stored credentials", async () => {
    const configDir = tempDir();
    seed(configDir, READ_ONLY_TOKEN);
    const r = await runCli(["org", "list", "--json"], {
      api,
      configDir,
      env: { TRACKER_AUTH_TOKEN: USER_TOKEN, TRACKER_TOKEN: OAUTH_TOKEN },
    });
    expect(r.exitCode).toBe(0);
    expect(sentTokens()).toEqual([`Bearer ${USER_TOKEN}`]);
    // Said once, at info level, although several requests were made.
    expect(r.stderr).toBe("Using TRACKER_AUTH_TOKEN from the environment; stored credentials are ignored.\n");
    expect(storedIn(configDir)?.token).toBe(READ_ONLY_TOKEN);
  });

  test("TRACKER_TOKEN beats stored credentials", async () => {
    const configDir = tempDir();
    seed(configDir, READ_ONLY_TOKEN);
    const r = await runCli(["org", "list", "--json"], {
      api,
      configDir,
      env: { TRACKER_TOKEN: OAUTH_TOKEN },
    });
    expect(r.exitCode).toBe(0);
    expect(sentTokens()).toEqual([`Bearer ${OAUTH_TOKEN}`]);
  });

  test("stored credentials are used without env tokens; the note is not printed", async () => {
    const configDir = tempDir();
    seed(configDir, READ_ONLY_TOKEN);
    const r = await runCli(["org", "list", "--json"], { api, configDir });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    expect(sentTokens()).toEqual([`Bearer ${READ_ONLY_TOKEN}`]);
  });

  test("--log-level error hides the info note", async () => {
    const configDir = tempDir();
    seed(configDir, READ_ONLY_TOKEN);
    const r = await runCli(["org", "list", "--log-level", "error"], { api, configDir, token: USER_TOKEN });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
  });

  test("host-bound: stored credentials for another URL are not sent (exit 13)", async () => {
    const configDir = tempDir();
    seed(configDir, USER_TOKEN, { base_url: "https://sentry.example.com" });
    const r = await runCli(["org", "list"], { api, configDir });
    expect(r.exitCode).toBe(13);
    expect(r.stderr).toBe(
      `Error: No stored login for ${api.url} (tracker has a login for https://sentry.example.com); no token was sent.\n\n` +
        `Run \`tracker auth login\` to log in to ${api.url}, or unset TRACKER_URL to use the login for https://sentry.example.com.\n`,
    );
    expect(api.requests).toEqual([]);
  });
});

describe("auth logout", () => {
  test("removes stored credentials and says so; db stays mode 600", async () => {
    const configDir = tempDir();
    seed(configDir, USER_TOKEN);
    const r = await runCli(["auth", "logout"], { api, configDir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`Logged out: removed the stored login for ${api.url}.\n`);
    expect(r.stderr).toBe("");
    expect(storedIn(configDir)).toBeNull();
    expect(dbFileModes(configDir).every((m) => m === 0o600)).toBe(true);
    const again = await runCli(["auth", "logout", "--json"], { api, configDir });
    expect(JSON.parse(again.stdout)).toEqual({
      loggedOut: false,
      removed: false,
      baseUrl: api.url,
      removedLogins: [],
      remainingLogins: [],
      envToken: null,
    });
    const status = await runCli(["auth", "status"], { api, configDir });
    expect(status.exitCode).toBe(10);
    expect(status.stdout).toStartWith(`Not logged in to ${new URL(api.url).host}\n`);
    expect(api.requests).toEqual([]);
  });

  test("with an env token set, says the env var still applies", async () => {
    const configDir = tempDir();
    seed(configDir, USER_TOKEN);
    const r = await runCli(["auth", "logout"], { api, configDir, token: READ_ONLY_TOKEN });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe(
      "TRACKER_AUTH_TOKEN is still set in the environment and will still be used; unset it to stop using it.\n",
    );
    expect(storedIn(configDir)).toBeNull();
  });
});

describe("scope hint and secrecy", () => {
  test("a 403 names the scopes the endpoint needs and the ones the token has", async () => {
    const weak = mintOrgToken(api.state, "acme", ["org:ci"]);
    const r = await runCli(["org", "view", "acme"], { api, token: weak });
    expect(r.exitCode).toBe(30);
    expect(r.stderr).toContain("Request failed with status 403");
    expect(r.stderr).toContain(
      "GET /api/0/organizations/acme/ needs one of the scopes org:read, org:write, org:admin. The token has org:ci.",
    );
    expect(r.stderr).not.toContain(weak);
  });

  test("no token in any output or trace log (login --token, status, logout)", async () => {
    const configDir = tempDir();
    const runs = [
      await runCli(["auth", "login", "--token", USER_TOKEN, "--log-level", "trace"], { api, configDir }),
      await runCli(["auth", "status", "--log-level", "trace"], { api, configDir }),
      await runCli(["auth", "status", "--json", "--log-level", "trace"], {
        api,
        configDir,
        token: OAUTH_TOKEN,
      }),
      await runCli(["auth", "logout", "--log-level", "trace"], { api, configDir }),
    ];
    expect(runs.map((r) => r.exitCode)).toEqual([0, 0, 0, 0]);
    // Trace logging is on: requests are logged, with the Authorization header masked.
    expect(runs[1]?.stderr).toContain("→ GET");
    expect(runs[1]?.stderr).toContain("authorization: [REDACTED]");
    for (const r of runs) {
      expect(r.stdout + r.stderr).not.toContain(USER_TOKEN);
      expect(r.stdout + r.stderr).not.toContain(OAUTH_TOKEN);
      expect(r.stdout + r.stderr).not.toContain(USER_TOKEN.slice(7, 40));
    }
    expect(api.requestsTo("/oauth/token/")).toEqual([]);
  });
});

describe("stored logins whose service is unknown or another", () => {
  test("a login without a service URL (a repair after a downgrade) is never sent", async () => {
    const dir = tempDir("tracker-cfg-");
    const ok = await runCli(["auth", "login", "--token", USER_TOKEN], { api, configDir: dir });
    expect(ok.exitCode).toBe(0);
    // What an older version's single login looks like after a repair re-added its URL column:
    // the legacy row, with no service URL.
    const db = new Database(join(dir, "tracker.db"));
    db.run(
      "INSERT INTO auth (id, token, refresh_token, expires_at, issued_at, updated_at, kind, base_url, user_json) SELECT 1, token, refresh_token, expires_at, issued_at, updated_at, kind, NULL, user_json FROM logins",
    );
    db.run("DELETE FROM logins");
    db.close();
    api.reset();
    const r = await runCli(["org", "list"], { api, configDir: dir });
    expect(r.exitCode).toBe(10);
    expect(r.stderr).toStartWith(
      "Error: The stored login does not say which service it belongs to; the token was not sent.",
    );
    expect(api.requests).toEqual([]);
  });

  test("with TRACKER_URL unset, the only stored login's URL is the service URL", async () => {
    const dir = tempDir("tracker-cfg-");
    await runCli(["auth", "login", "--token", USER_TOKEN], { api, configDir: dir });
    api.reset();
    const r = await runCli(["org", "list", "--json"], { configDir: dir, env: { TRACKER_URL: undefined } });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).map((o: { slug: string }) => o.slug)).toContain("acme");
    expect(api.requests.length).toBeGreaterThan(0);
  });

  test("auth login --url adds a login for that service, whatever TRACKER_URL says, and only talks to it", async () => {
    const dir = tempDir("tracker-cfg-");
    await runCli(["auth", "login", "--token", USER_TOKEN], { api, configDir: dir });
    api.reset();
    const second = await startFakeApi();
    try {
      for (const env of [{ TRACKER_URL: undefined }, { TRACKER_URL: api.url }]) {
        const r = await runCli(
          ["auth", "login", "--url", `${second.url}/`, "--token", OAUTH_TOKEN, "--force"],
          {
            configDir: dir,
            env,
          },
        );
        expect(r.exitCode).toBe(0);
        expect(r.stdout).toStartWith(`Logged in to ${second.url} as `);
      }
      expect(api.requests).toEqual([]);
      expect(second.requestsTo("/api/0/auth/")).toHaveLength(2);
      const rows = new Database(join(dir, "tracker.db"), { readonly: true });
      const stored = rows.query("SELECT base_url, token FROM logins ORDER BY base_url").all();
      rows.close();
      expect(stored).toEqual(
        [
          { base_url: api.url, token: USER_TOKEN },
          { base_url: second.url, token: OAUTH_TOKEN },
        ].sort((a, b) => a.base_url.localeCompare(b.base_url)),
      );
      const bad = await runCli(["auth", "login", "--url", "ftp://x", "--token", OAUTH_TOKEN], {
        configDir: dir,
      });
      expect(bad.exitCode).toBe(20);
      expect(bad.stdout).toBe("");
      expect(bad.stderr).toStartWith("Error: --url must use http or https, got 'ftp:'");
      expect(second.requestsTo("/api/0/auth/")).toHaveLength(2);
    } finally {
      second.stop();
    }
  });

  test("several logins side by side: each URL keeps its own; without TRACKER_URL the hint names each exact TRACKER_URL", async () => {
    const dir = tempDir("tracker-cfg-");
    await runCli(["auth", "login", "--token", USER_TOKEN], { api, configDir: dir });
    // A second service (its own fake) and its login, added next to the first (not replacing it).
    const second = await startFakeApi();
    const secondUrl = second.url;
    const other = await runCli(["auth", "login", "--token", OAUTH_TOKEN, "--json"], {
      configDir: dir,
      env: { TRACKER_URL: secondUrl },
    });
    expect(other.exitCode).toBe(0);
    expect(JSON.parse(other.stdout)).toMatchObject({ replaced: null, otherLogins: [api.url] });
    expect(other.stderr).toContain(`Also logged in to ${api.url}`);
    const rows = new Database(join(dir, "tracker.db"), { readonly: true });
    const stored = rows.query("SELECT base_url, token FROM logins ORDER BY base_url").all();
    rows.close();
    expect(stored).toEqual(
      [
        { base_url: api.url, token: USER_TOKEN },
        { base_url: secondUrl, token: OAUTH_TOKEN },
      ].sort((a, b) => a.base_url.localeCompare(b.base_url)),
    );
    // Each URL uses its own login.
    for (const [url, token] of [
      [api.url, USER_TOKEN],
      [secondUrl, OAUTH_TOKEN],
    ] as const) {
      api.reset();
      second.reset();
      const s = await runCli(["auth", "status", "--json"], { configDir: dir, env: { TRACKER_URL: url } });
      const doc = JSON.parse(s.stdout);
      expect(doc.authenticated).toBe(true);
      expect(doc.baseUrl).toBe(url);
      const asked = url === api.url ? api.requests : second.requests;
      expect(asked.length).toBeGreaterThan(0);
      expect(new Set(asked.map((q) => q.headers.authorization))).toEqual(new Set([`Bearer ${token}`]));
      expect(doc.logins.map((l: { baseUrl: string; active: boolean }) => [l.baseUrl, l.active])).toEqual(
        [api.url, secondUrl].sort().map((u) => [u, u === url]),
      );
    }
    // Without TRACKER_URL and with two logins, the hosted default applies; nothing is sent there.
    api.reset();
    const s = await runCli(["auth", "status"], { configDir: dir, env: { TRACKER_URL: undefined } });
    expect(s.exitCode).toBe(13);
    expect(s.stdout).toStartWith("Not logged in to sentry.io (stored logins are for ");
    expect(s.stdout).toContain(`Stored login:  ${api.url}`);
    expect(s.stderr).toContain(`TRACKER_URL=${api.url}`);
    expect(s.stderr).toContain(`TRACKER_URL=${secondUrl}`);
    expect(s.stderr).not.toContain("unset TRACKER_URL");
    expect(api.requests).toEqual([]);
    // Logging out of one URL keeps the other; --all removes the rest.
    const out = await runCli(["auth", "logout", "--url", secondUrl], {
      configDir: dir,
      env: { TRACKER_URL: undefined },
    });
    expect(out.stdout).toBe(`Logged out: removed the stored login for ${secondUrl}.\n`);
    expect(out.stderr).toContain(`Still logged in to: ${api.url}`);
    const all = await runCli(["auth", "logout", "--all", "--json"], {
      configDir: dir,
      env: { TRACKER_URL: undefined },
    });
    expect(JSON.parse(all.stdout)).toMatchObject({ removedLogins: [api.url], remainingLogins: [] });
    expect((await runCli(["auth", "logout", "--all", "--url", api.url], { configDir: dir })).exitCode).toBe(
      21,
    );
    expect(second.unmatched).toEqual([]);
    second.stop();
  });
});

describe("an environment token and a stored login of another service", () => {
  test("without TRACKER_URL the env token never goes to the stored login's host", async () => {
    const dir = tempDir("tracker-cfg-");
    // The only stored login is a self-hosted one (this fake).
    await runCli(["auth", "login", "--token", USER_TOKEN], { api, configDir: dir });
    api.reset();
    // A user token from the environment means the hosted service; every connection is sent to a
    // dead loopback proxy so nothing leaves the machine, and the stored login's host hears nothing.
    const user = await runCli(["org", "list"], {
      configDir: dir,
      env: { TRACKER_URL: undefined, TRACKER_AUTH_TOKEN: READ_ONLY_TOKEN, HTTPS_PROXY: "http://127.0.0.1:1" },
    });
    expect(user.exitCode).toBe(31);
    expect(user.stderr).toContain("sentry.io");
    expect(api.requests).toEqual([]);
    // An org token's claim names its service: that one is used (here: another fake).
    const other = await startFakeApi();
    try {
      const orgToken = mintOrgToken(other.state, "acme");
      const r = await runCli(["org", "list", "--json"], {
        configDir: dir,
        env: { TRACKER_URL: undefined, TRACKER_AUTH_TOKEN: orgToken },
      });
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(r.stdout).map((o: { slug: string }) => o.slug)).toEqual(["acme"]);
      expect(other.requests.length).toBeGreaterThan(0);
      expect(api.requests).toEqual([]);
    } finally {
      other.stop();
    }
    // Without an env token the stored login still means its own host.
    const stored = await runCli(["org", "list"], { configDir: dir, env: { TRACKER_URL: undefined } });
    expect(stored.exitCode).toBe(0);
    expect(api.requests.length).toBeGreaterThan(0);
  });
});
