/**
 * Issue 31 §1: a device-flow login asks for the scopes tracker's own commands need (release writes
 * and uploads included), `--scope`/`--read-only` change that, a 403 names the endpoint's scopes and
 * the token's, `auth token` prints the token for other tools (never onto a terminal unasked), and
 * `auth status` fails when not authenticated.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { scopeHint, scopesForEndpoint } from "../../src/lib/auth/scopes.ts";
import { mintOrgToken } from "../fake-api/routes/auth.ts";
import { configureOAuth, oauthData, TEST_CLIENT_ID } from "../fake-api/routes/oauth.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
beforeEach(() => {
  configureOAuth(api.state, { interval: 0 });
});
const env = { TRACKER_CLIENT_ID: TEST_CLIENT_ID };

/** The scopes each device-code request of this test asked for. */
const askedScopes = () =>
  api.requestsTo("/oauth/device/code/", "POST").map((r) => new URLSearchParams(r.body).get("scope"));

describe("auth login scopes", () => {
  test("the default login can write releases: the device code asks for project:releases, and a finalize works", async () => {
    const configDir = tempDir();
    const login = await runCli(["auth", "login"], { api, configDir, env });
    expect(login.exitCode).toBe(0);
    expect(askedScopes()).toEqual(["org:read project:read project:releases event:read event:write"]);
    // The fake grants what was asked: the grant it keeps for the device code says so.
    const grants = [...oauthData(api.state).devices.values()].map((d) => d.scopes);
    expect(grants).toEqual([["org:read", "project:read", "project:releases", "event:read", "event:write"]]);
    expect(login.stderr).toContain(
      "Token scopes: org:read project:read project:releases event:read event:write",
    );
    const fin = await runCli(["release", "finalize", "web@1.4.0", "acme"], { api, configDir, env });
    expect(fin.stderr).toBe("");
    expect(fin.exitCode).toBe(0);
  });

  test("--read-only asks for read scopes only; a release write then gets a 403 naming what it needs and what the token has", async () => {
    const configDir = tempDir();
    const login = await runCli(["auth", "login", "--read-only", "--json"], { api, configDir, env });
    expect(login.exitCode).toBe(0);
    expect(JSON.parse(login.stdout).scopes).toEqual(["org:read", "project:read", "event:read"]);
    expect(askedScopes()).toEqual(["org:read project:read event:read"]);
    const fin = await runCli(["release", "finalize", "web@1.4.0", "acme"], { api, configDir, env });
    expect(fin.exitCode).toBe(30);
    expect(fin.stderr).toContain(
      "PUT /api/0/organizations/acme/releases/web%401.4.0/ needs one of the scopes project:releases, project:write, project:admin, org:ci. The token has org:read, project:read, event:read. Run `tracker auth login` again",
    );
  });

  test("--scope adds scopes (repeatable); an unknown scope, a write scope with --read-only and --scope with --token are refused before any request", async () => {
    const configDir = tempDir();
    const more = await runCli(["auth", "login", "--scope", "project:write", "--scope", "alerts:read"], {
      api,
      configDir,
      env,
    });
    expect(more.exitCode).toBe(0);
    expect(askedScopes()).toEqual([
      "org:read project:read project:releases event:read event:write project:write alerts:read",
    ]);
    api.reset();
    const unknown = await runCli(["auth", "login", "--scope", "project:everything"], { api, env });
    expect(unknown.exitCode).toBe(21);
    expect(unknown.stderr).toContain("Unknown scope 'project:everything'");
    const mixed = await runCli(["auth", "login", "--read-only", "--scope", "event:write"], { api, env });
    expect(mixed.exitCode).toBe(21);
    expect(mixed.stderr).toContain("event:write would allow changes");
    const pasted = await runCli(["auth", "login", "--token", USER_TOKEN, "--read-only"], { api, env });
    expect(pasted.exitCode).toBe(21);
    expect(api.requests).toEqual([]);
  });
});

describe("403 hint table", () => {
  test.each([
    ["PUT /api/0/organizations/acme/releases/1.0/", "project:releases"],
    ["POST /api/0/organizations/acme/releases/1.0/deploys/", "project:releases"],
    ["GET /api/0/organizations/acme/chunk-upload/", "project:releases"],
    ["POST /api/0/projects/acme/web/files/difs/assemble/", "project:releases"],
    ["GET /api/0/organizations/acme/releases/", "project:read"],
    ["PUT /api/0/organizations/acme/issues/1/", "event:write"],
    ["GET /api/0/organizations/acme/issues/?query=x", "event:read"],
    ["GET /api/0/projects/acme/web/keys/", "project:read"],
    ["GET /api/0/organizations/acme/", "org:read"],
  ])("%s needs %s", (endpoint, scope) => {
    expect(scopesForEndpoint(endpoint)?.[0]).toBe(scope);
  });

  test("an unknown endpoint has no table hint; unknown token scopes are said to be unknown", () => {
    expect(scopesForEndpoint("GET /api/0/somewhere-else/")).toBeUndefined();
    expect(scopeHint("PUT /api/0/organizations/acme/releases/1/", undefined)).toContain(
      "The token's scopes are not known here",
    );
    // An environment token is replaced by another token; a stored login by logging in again.
    expect(
      scopeHint("PUT /api/0/organizations/acme/releases/1/", {
        scopes: ["org:read"],
        source: "SENTRY_AUTH_TOKEN",
      }),
    ).toBe(
      "PUT /api/0/organizations/acme/releases/1/ needs one of the scopes project:releases, project:write, project:admin, org:ci. The token has org:read. Use a token created with project:releases, or unset it and run `tracker auth login`.",
    );
    expect(scopeHint("GET /api/0/organizations/acme/", { scopes: ["org:read"], source: "stored" })).toBe(
      "GET /api/0/organizations/acme/ needs one of the scopes org:read, org:write, org:admin. The token has org:read.",
    );
  });
});

describe("auth token", () => {
  test("piped: prints the token in use and nothing else; the trace log never shows it", async () => {
    const r = await runCli(["auth", "token", "--log-level", "trace"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`${USER_TOKEN}\n`);
    expect(r.stderr).not.toContain(USER_TOKEN);
    expect(r.stderr).toContain("Token from TRACKER_AUTH_TOKEN");
    expect(api.requests).toEqual([]);
    const json = await runCli(["auth", "token", "--json"], { api, token: USER_TOKEN });
    expect(JSON.parse(json.stdout)).toEqual({ token: USER_TOKEN, source: "TRACKER_AUTH_TOKEN" });
  });

  test("on a terminal it refuses unless --show asks for it", async () => {
    const refused = await runCli(["auth", "token"], { api, token: USER_TOKEN, terminal: { stdout: true } });
    expect(refused.exitCode).toBe(21);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain("Not printing the token on a terminal");
    expect(refused.stderr).not.toContain(USER_TOKEN);
    const shown = await runCli(["auth", "token", "--show"], {
      api,
      token: USER_TOKEN,
      terminal: { stdout: true },
    });
    expect(shown).toMatchObject({ exitCode: 0, stdout: `${USER_TOKEN}\n` });
  });

  test("the stored login's token (after a device-flow login); not logged in: exit 10", async () => {
    const configDir = tempDir();
    expect((await runCli(["auth", "login"], { api, configDir, env })).exitCode).toBe(0);
    const r = await runCli(["auth", "token"], { api, configDir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^[0-9a-f]{64}\n$/);
    const none = await runCli(["auth", "token"], { api });
    expect(none.exitCode).toBe(10);
    expect(none.stdout).toBe("");
  });

  test("an org token's 403 hint says it has org:ci", async () => {
    const token = mintOrgToken(api.state, "acme", ["org:ci"]);
    const r = await runCli(["issue", "list", "acme/web"], { api, token });
    expect(r.exitCode).toBe(30);
    expect(r.stderr).toContain(
      "needs one of the scopes project:read, project:write, project:admin. The token has org:ci.",
    );
  });
});

describe("auth status in scripts", () => {
  test("`tracker auth status || tracker auth login`: status exits 10 without a token, 0 with one", async () => {
    const none = await runCli(["auth", "status"], { api });
    expect(none.exitCode).toBe(10);
    const ok = await runCli(["auth", "status"], { api, token: USER_TOKEN });
    expect(ok.exitCode).toBe(0);
  });
});
