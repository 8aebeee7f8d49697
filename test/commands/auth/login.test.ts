import { describe, expect, test } from "bun:test";
import authLogin from "../../../src/commands/auth/login.ts";
import { readCredentials, writeCredentials } from "../../../src/lib/db/auth.ts";
import { ConfigError, DeviceFlowError, ValidationError } from "../../../src/lib/errors.ts";
import { configureOAuth, TEST_CLIENT_ID } from "../../fake-api/routes/oauth.ts";
import { READ_ONLY_TOKEN, USER_TOKEN } from "../../fake-api/seed.ts";
import { createTestContext, type TestContextOptions } from "../../helpers/context.ts";
import { useFakeApi } from "../../helpers/fake-api.ts";

const api = useFakeApi({ afterReset: (a) => configureOAuth(a.state) });

const flags = { json: false, verbose: false };

function context(opts: TestContextOptions = {}) {
  return createTestContext({ api, env: { TRACKER_CLIENT_ID: TEST_CLIENT_ID, ...opts.env }, ...opts });
}

async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error("expected a failure");
}

function pollCount(): number {
  return api.requestsTo("/oauth/token/", "POST").length;
}

describe("device flow", () => {
  test("success after several authorization_pending: polls at the server's interval, first poll after one interval", async () => {
    configureOAuth(api.state, {
      interval: 5,
      pollAnswers: ["authorization_pending", "authorization_pending", "authorization_pending"],
    });
    const t = context();
    await authLogin.call(t.ctx, flags);
    expect(t.sleeps).toEqual([5000, 5000, 5000, 5000]);
    expect(pollCount()).toBe(4);
    const c = readCredentials(t.ctx);
    expect(c?.kind).toBe("oauth");
    expect(c?.base_url).toBe(api.url);
    expect(c?.issued_at).toBe(Date.parse("2026-01-15T12:00:20Z"));
    expect(c?.expires_at).toBe(Date.parse("2026-01-15T12:00:20Z") + 2_591_999_000);
    expect(c?.updated_at).toBe(Date.parse("2026-01-15T12:00:20Z"));
    expect(t.stdout()).toBe(`Logged in to ${api.url} as Jane Doe <jane@example.com>.\n`);
    // The request carries the client id and the spec's scopes as a form body.
    const codeReq = api.requestsTo("/oauth/device/code/", "POST")[0];
    expect(codeReq?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(codeReq?.body))).toEqual({
      client_id: TEST_CLIENT_ID,
      scope: "org:read project:read project:releases event:read event:write",
    });
    const poll = new URLSearchParams(api.requestsTo("/oauth/token/")[0]?.body);
    expect(poll.get("grant_type")).toBe("urn:ietf:params:oauth:grant-type:device_code");
    expect(poll.get("client_id")).toBe(TEST_CLIENT_ID);
  });

  test("slow_down adds 5 s to the interval for the rest of the flow", async () => {
    configureOAuth(api.state, {
      interval: 5,
      pollAnswers: [
        "authorization_pending",
        "slow_down",
        "authorization_pending",
        "slow_down",
        "authorization_pending",
      ],
    });
    const t = context();
    await authLogin.call(t.ctx, flags);
    expect(t.sleeps).toEqual([5000, 5000, 10000, 10000, 15000, 15000]);
  });

  test("expired_token ends with DeviceFlowError naming the code and what to do; nothing stored", async () => {
    configureOAuth(api.state, { pollAnswers: ["authorization_pending", "expired_token"] });
    const t = context();
    writeCredentials(t.ctx, {
      token: READ_ONLY_TOKEN,
      refresh_token: null,
      expires_at: null,
      issued_at: null,
      kind: "user",
      base_url: api.url,
      user_json: null,
    });
    const err = await failure(authLogin.call(t.ctx, flags));
    expect(err).toBeInstanceOf(DeviceFlowError);
    expect((err as DeviceFlowError).code).toBe("expired_token");
    expect((err as DeviceFlowError).exitCode).toBe(51);
    expect((err as DeviceFlowError).format()).toBe(
      "The device code expired before the login was approved (expired_token).\n\nRun `tracker auth login` again and approve it within the time shown.",
    );
    expect(readCredentials(t.ctx)?.token).toBe(READ_ONLY_TOKEN);
    expect(t.stdout()).toBe("");
  });

  test("access_denied ends with DeviceFlowError access_denied", async () => {
    configureOAuth(api.state, { pollAnswers: ["access_denied"] });
    const t = context();
    const err = (await failure(authLogin.call(t.ctx, flags))) as DeviceFlowError;
    expect(err.code).toBe("access_denied");
    expect(err.message).toBe("The login was denied in the browser (access_denied).");
    expect(pollCount()).toBe(1);
    expect(readCredentials(t.ctx)).toBeUndefined();
  });

  test("stops at expires_in even when the server keeps answering pending", async () => {
    configureOAuth(api.state, {
      interval: 5,
      deviceExpiresIn: 12,
      pollAnswers: Array(10).fill("authorization_pending"),
    });
    const t = context();
    const err = (await failure(authLogin.call(t.ctx, flags))) as DeviceFlowError;
    expect(err.code).toBe("expired_token");
    expect(t.sleeps).toEqual([5000, 5000, 5000]);
    expect(pollCount()).toBe(2);
  });

  test("invalid_client from the device-code endpoint names TRACKER_CLIENT_ID", async () => {
    const t = context({ env: { TRACKER_CLIENT_ID: "not-registered" } });
    const err = (await failure(authLogin.call(t.ctx, flags))) as DeviceFlowError;
    expect(err.code).toBe("invalid_client");
    expect(err.format()).toContain("Set TRACKER_CLIENT_ID to the client ID of a Public OAuth application");
  });

  test("self-hosted without TRACKER_CLIENT_ID: ConfigError with the spec's message", async () => {
    const t = createTestContext({ api });
    const err = await failure(authLogin.call(t.ctx, flags));
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).message).toBe("OAuth requires `TRACKER_CLIENT_ID` for self-hosted instances");
    expect(api.requests).toEqual([]);
  });

  test("prints the verification URL and user code on stderr; builds the complete URL when missing; --json on stdout", async () => {
    configureOAuth(api.state, { interval: 1, omitCompleteUri: true, includeUser: false });
    const t = context();
    await authLogin.call(t.ctx, { json: true, verbose: false });
    const code = /enter the code ([B-Z]{4}-[B-Z]{4})/.exec(t.stderr())?.[1];
    expect(code).toBeDefined();
    expect(t.stderr()).toContain(`(or open ${api.url}/oauth/device/?user_code=${code})`);
    // Without `user` in the token answer, the identity comes from /api/0/auth/ with the new token.
    expect(api.requestsTo("/api/0/auth/")).toHaveLength(1);
    const doc = JSON.parse(t.stdout());
    expect(doc).toMatchObject({ authenticated: true, method: "oauth", kind: "oauth", user: { id: "12345" } });
    expect(doc.expiresAt).toBe(new Date(Date.parse("2026-01-15T12:00:01Z") + 2_591_999_000).toISOString());
  });

  test("a non-JSON answer to a poll is an unexpected response pointing to --token", async () => {
    configureOAuth(api.state, { interval: 1 });
    api.inject({ path: "/oauth/token/", status: 200, raw: "<!doctype html><p>Sign in</p>" });
    const t = context();
    const err = (await failure(authLogin.call(t.ctx, flags))) as DeviceFlowError;
    expect(err.code).toBe("unexpected_response");
    expect(err.format()).toContain("tracker auth login --token");
  });
});

describe("token login (command level)", () => {
  test("reads the token from stdin when it is not a terminal", async () => {
    const t = context({ stdinText: `${USER_TOKEN}\n` });
    await authLogin.call(t.ctx, { ...flags, token: "" });
    expect(readCredentials(t.ctx)?.token).toBe(USER_TOKEN);
  });

  test("no token and nothing on stdin: ValidationError telling how to pass it", async () => {
    const t = context({ stdinText: "" });
    const err = await failure(authLogin.call(t.ctx, { ...flags, token: "" }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(api.requests).toEqual([]);
  });

  test("with an env token set, the login stores and notes that the env var still wins", async () => {
    const t = context({ env: { TRACKER_CLIENT_ID: TEST_CLIENT_ID, TRACKER_AUTH_TOKEN: READ_ONLY_TOKEN } });
    await authLogin.call(t.ctx, { ...flags, token: USER_TOKEN });
    expect(readCredentials(t.ctx)?.token).toBe(USER_TOKEN);
    // Verified with the pasted token, not the environment one.
    expect(api.requestsTo("/api/0/auth/")[0]?.headers.authorization).toBe(`Bearer ${USER_TOKEN}`);
    expect(t.stderr()).toBe(
      `Logging in to ${api.url} (from TRACKER_URL).\nNote: TRACKER_AUTH_TOKEN is set and takes precedence over the credentials just stored.\n`,
    );
  });
});
