/**
 * OAuth device flow and refresh grant (API.md 8.3 and 8.4, RFC 8628): form-encoded bodies,
 * RFC 6749 `{"error": ...}` bodies on 400/401, rotating refresh tokens. Each test steers the
 * flow through `configureOAuth` (e.g. a queue of answers the next polls get).
 */
import { json } from "../http.ts";
import { ALL_SCOPES, SENTRY_SCOPES } from "../seed.ts";
import type { FakeRequest, FakeState, Route } from "../types.ts";

/** The public client id the fake accepts by default (tests set TRACKER_CLIENT_ID to it). */
export const TEST_CLIENT_ID = "f0e1d2c3b4a5968778695a4b3c2d1e0ff0e1d2c3b4a5968778695a4b3c2d1e0f";

/** One answer a poll can get before the user approves. */
export type PollAnswer = "authorization_pending" | "slow_down" | "expired_token" | "access_denied";

/** How the fake OAuth server behaves; every field has a default. */
export interface OAuthScenario {
  clientIds: string[];
  /** `interval` sent with a device code (seconds). */
  interval: number;
  /** `expires_in` of a device code (seconds). */
  deviceExpiresIn: number;
  /** Answers of the next polls of a new device code, in order; when used up, the poll is approved. */
  pollAnswers: PollAnswer[];
  /** `expires_in` of issued access tokens (null: a non-expiring token). */
  tokenExpiresIn: number | null;
  /** Send `user` with the token (API.md 8.3). */
  includeUser: boolean;
  /** Leave out `verification_uri_complete` (the client must build it). */
  omitCompleteUri: boolean;
  /** Hold refresh answers this long (makes concurrent refreshes overlap). */
  refreshDelayMs: number;
  /** Newly issued access tokens are already expired on the server (401 "Token expired"). */
  issueExpired: boolean;
  /** The verification page sent with a device code (default: the fake's own `/oauth/device/`). */
  verificationUri: string | null;
}

interface DeviceGrant {
  clientId: string;
  scopes: string[];
  userCode: string;
  answers: PollAnswer[];
  done: boolean;
}

interface RefreshGrant {
  accessToken: string;
  clientId: string;
  scopes: string[];
}

/** This module's part of the fake server state. */
export interface OAuthData {
  scenario: OAuthScenario;
  devices: Map<string, DeviceGrant>;
  refreshTokens: Map<string, RefreshGrant>;
  /** Grant types of successful token answers, in order (`device_code` / `refresh_token`). */
  issued: string[];
}

const KEY = "oauth";
const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
const USER_CODE_LETTERS = "BCDFGHJKLMNPQRSTVWXZ";

function defaults(): OAuthScenario {
  return {
    clientIds: [TEST_CLIENT_ID],
    interval: 5,
    deviceExpiresIn: 600,
    pollAnswers: [],
    tokenExpiresIn: 2_591_999,
    includeUser: true,
    omitCompleteUri: false,
    refreshDelayMs: 0,
    issueExpired: false,
    verificationUri: null,
  };
}

/** The OAuth state of a fake server (created on first use). */
export function oauthData(state: FakeState): OAuthData {
  let d = state.store.get(KEY) as OAuthData | undefined;
  if (!d) {
    d = { scenario: defaults(), devices: new Map(), refreshTokens: new Map(), issued: [] };
    state.store.set(KEY, d);
  }
  return d;
}

/** Resets the scenario to the defaults, then applies `changes`. */
export function configureOAuth(state: FakeState, changes: Partial<OAuthScenario> = {}): OAuthScenario {
  const d = oauthData(state);
  d.scenario = { ...defaults(), ...changes };
  return d.scenario;
}

function randomHex(bytes = 32): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("hex");
}

function randomUserCode(): string {
  const pick = () => USER_CODE_LETTERS[Math.floor(Math.random() * USER_CODE_LETTERS.length)];
  const part = () => Array.from({ length: 4 }, pick).join("");
  return `${part()}-${part()}`;
}

/** Issues an access/refresh token pair the server accepts (also used to seed stored credentials). */
export function mintOAuthTokens(
  state: FakeState,
  opts: { clientId?: string; scopes?: readonly string[]; expired?: boolean } = {},
): { accessToken: string; refreshToken: string } {
  const d = oauthData(state);
  const accessToken = randomHex();
  const refreshToken = randomHex();
  const scopes = [...(opts.scopes ?? ALL_SCOPES)];
  state.tokens.set(accessToken, {
    userId: state.users[0]?.id,
    scopes,
    kind: "oauth",
    expired: opts.expired ?? d.scenario.issueExpired,
  });
  d.refreshTokens.set(refreshToken, { accessToken, clientId: opts.clientId ?? TEST_CLIENT_ID, scopes });
  return { accessToken, refreshToken };
}

function oauthError(status: number, error: string, description?: string): Response {
  return json(description ? { error, error_description: description } : { error }, status);
}

/** Parses a form body; undefined when the request is not form-encoded (Sentry answers invalid_request). */
function formOf(req: FakeRequest): URLSearchParams | undefined {
  const type = req.headers.get("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded")) return undefined;
  return new URLSearchParams(req.body);
}

function tokenBody(state: FakeState, pair: { accessToken: string; refreshToken: string }, scopes: string[]) {
  const s = oauthData(state).scenario;
  const user = state.users[0];
  return {
    access_token: pair.accessToken,
    refresh_token: pair.refreshToken,
    token_type: "bearer",
    expires_in: s.tokenExpiresIn,
    expires_at:
      s.tokenExpiresIn === null ? null : new Date(Date.now() + s.tokenExpiresIn * 1000).toISOString(),
    scope: scopes.join(" "),
    ...(s.includeUser && user ? { user: { id: user.id, name: user.name, email: user.email } } : {}),
  };
}

function deviceCode(req: FakeRequest): Response {
  const form = formOf(req);
  if (!form) return oauthError(400, "invalid_request", "Body must be application/x-www-form-urlencoded");
  const d = oauthData(req.state);
  const clientId = form.get("client_id");
  if (!clientId || !d.scenario.clientIds.includes(clientId)) return oauthError(401, "invalid_client");
  const scopes = (form.get("scope") ?? "").split(" ").filter(Boolean);
  const unknown = scopes.filter((sc) => !(SENTRY_SCOPES as readonly string[]).includes(sc));
  if (unknown.length > 0) return oauthError(400, "invalid_scope", `Unknown scopes: ${unknown.join(" ")}`);
  const code = randomHex();
  const userCode = randomUserCode();
  d.devices.set(code, {
    clientId,
    scopes,
    userCode,
    answers: [...d.scenario.pollAnswers],
    done: false,
  });
  const uri = d.scenario.verificationUri ?? `${req.state.urls.control}/oauth/device/`;
  return json({
    device_code: code,
    user_code: userCode,
    verification_uri: uri,
    ...(d.scenario.omitCompleteUri ? {} : { verification_uri_complete: `${uri}?user_code=${userCode}` }),
    expires_in: d.scenario.deviceExpiresIn,
    interval: d.scenario.interval,
  });
}

function deviceGrant(req: FakeRequest, form: URLSearchParams): Response {
  const d = oauthData(req.state);
  const grant = d.devices.get(form.get("device_code") ?? "");
  if (!grant || grant.done) return oauthError(400, "invalid_grant");
  if (form.get("client_id") !== grant.clientId) return oauthError(401, "invalid_client");
  const answer = grant.answers.shift();
  if (answer) {
    // Final answers end the device code, like the server deleting it.
    if (answer === "expired_token" || answer === "access_denied") grant.done = true;
    return oauthError(400, answer);
  }
  grant.done = true;
  const pair = mintOAuthTokens(req.state, { clientId: grant.clientId, scopes: grant.scopes });
  d.issued.push("device_code");
  return json(tokenBody(req.state, pair, grant.scopes));
}

async function refreshGrant(req: FakeRequest, form: URLSearchParams): Promise<Response> {
  const d = oauthData(req.state);
  // API.md 8.4: the refresh grant must not carry scope.
  if (form.has("scope")) return oauthError(400, "invalid_request", "scope is not allowed here");
  const rt = form.get("refresh_token") ?? "";
  const grant = d.refreshTokens.get(rt);
  if (d.scenario.refreshDelayMs > 0) await Bun.sleep(d.scenario.refreshDelayMs);
  if (!grant) return oauthError(400, "invalid_grant");
  if (form.get("client_id") !== grant.clientId) return oauthError(401, "invalid_client");
  // Both tokens rotate: the old pair stops working.
  d.refreshTokens.delete(rt);
  req.state.tokens.delete(grant.accessToken);
  const pair = mintOAuthTokens(req.state, { clientId: grant.clientId, scopes: grant.scopes });
  d.issued.push("refresh_token");
  return json(tokenBody(req.state, pair, grant.scopes));
}

/** Routes of this module. */
export const oauthRoutes: Route[] = [
  { method: "POST", pattern: "/oauth/device/code/", hosts: "control", handler: deviceCode },
  {
    method: "POST",
    pattern: "/oauth/token/",
    hosts: "control",
    handler: (req) => {
      const form = formOf(req);
      if (!form) return oauthError(400, "invalid_request", "Body must be application/x-www-form-urlencoded");
      const type = form.get("grant_type");
      if (type === DEVICE_GRANT) return deviceGrant(req, form);
      if (type === "refresh_token") return refreshGrant(req, form);
      return oauthError(400, "unsupported_grant_type");
    },
  },
];
