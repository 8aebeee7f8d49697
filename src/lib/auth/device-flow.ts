import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { ApiError, DeviceFlowError, type DeviceFlowCode } from "../errors.ts";
import { isHostedHost } from "../env.ts";
import { apiRequest } from "../http/client.ts";
import { TokenResponse } from "./refresh.ts";
import { canAnimate } from "../automation.ts";
import { LOGIN_SCOPES } from "./scopes.ts";

/** Scopes requested by `auth login` by default: enough for every command of tracker (lib/auth/scopes.ts). */
export const OAUTH_SCOPES = LOGIN_SCOPES;
/** Polling interval when the server does not send one (RFC 8628 default). */
export const DEFAULT_INTERVAL_S = 5;
/** Lifetime of a device code when the server does not say (Sentry's default). */
export const DEFAULT_EXPIRES_IN_S = 600;
/** RFC 8628 3.5: `slow_down` adds this much to the interval for the rest of the flow. */
export const SLOW_DOWN_STEP_S = 5;
/** The shortest wait between polls, whatever the server says (an `interval` of 0 would spin). */
export const MIN_INTERVAL_S = 1;
/** The longest wait between polls, whatever the server (or repeated `slow_down`) says. */
export const MAX_INTERVAL_S = 30;
/** The longest the client polls for one device code, whatever its `expires_in` says. */
export const MAX_FLOW_S = 15 * 60;

/** A polling interval kept within MIN_INTERVAL_S..MAX_INTERVAL_S (a missing or NaN one is the default). */
export function clampInterval(seconds: number | null | undefined): number {
  const s = seconds ?? DEFAULT_INTERVAL_S;
  if (Number.isNaN(s)) return DEFAULT_INTERVAL_S;
  return Math.min(MAX_INTERVAL_S, Math.max(MIN_INTERVAL_S, s));
}

/** A device code's lifetime kept within MAX_FLOW_S (a missing, NaN or non-positive one is the default). */
export function clampExpiresIn(seconds: number | null | undefined): number {
  const s = seconds ?? DEFAULT_EXPIRES_IN_S;
  if (Number.isNaN(s) || s <= 0) return DEFAULT_EXPIRES_IN_S;
  return Math.min(MAX_FLOW_S, s);
}

/** The device-code endpoint's success body. */
export const DeviceCodeResponse = v.object({
  device_code: v.pipe(v.string(), v.minLength(1)),
  user_code: v.pipe(v.string(), v.minLength(1)),
  verification_uri: v.pipe(v.string(), v.minLength(1)),
  verification_uri_complete: v.optional(v.nullable(v.string())),
  expires_in: v.optional(v.nullable(v.number())),
  interval: v.optional(v.nullable(v.number())),
});
/** A device code as the client uses it. */
export interface DeviceCode {
  deviceCode: string;
  userCode: string;
  verificationUri: string;
  /** The verification page with the user code filled in. */
  verificationUriComplete: string;
  expiresInS: number;
  intervalS: number;
}

const OAuthError = v.object({ error: v.string(), error_description: v.optional(v.nullable(v.string())) });
const DeviceCodeBody = v.union([DeviceCodeResponse, OAuthError]);
const TokenBody = v.union([TokenResponse, OAuthError]);

/** A successful token response. */
export type TokenGrant = v.InferOutput<typeof TokenResponse>;

function tokenPageHint(ctx: TrackerContext): string {
  return `Create a token at ${ctx.settings.baseUrl}/settings/account/api/auth-tokens/ and run \`tracker auth login --token\`.`;
}

/** The server answered the OAuth endpoints with something that is not OAuth (HTML, 404): too old for the device flow. */
function unsupported(ctx: TrackerContext, err: ApiError): DeviceFlowError {
  return new DeviceFlowError(
    "unexpected_response",
    `${ctx.settings.baseUrl} did not answer the OAuth device flow (status ${err.status}); self-hosted servers need version 26.1.0 or later for it.`,
    tokenPageHint(ctx),
  );
}

function knownCode(code: string): DeviceFlowCode {
  const known: readonly string[] = [
    "authorization_pending",
    "slow_down",
    "expired_token",
    "access_denied",
    "invalid_grant",
    "invalid_client",
    "unsupported_grant_type",
    "invalid_request",
  ];
  return (known.includes(code) ? code : "unexpected_response") as DeviceFlowCode;
}

function protocolError(ctx: TrackerContext, error: string, description?: string | null): DeviceFlowError {
  const code = knownCode(error);
  const detail = description ? `: ${description}` : "";
  switch (code) {
    case "expired_token":
      return new DeviceFlowError(
        code,
        "The device code expired before the login was approved (expired_token).",
        "Run `tracker auth login` again and approve it within the time shown.",
      );
    case "access_denied":
      return new DeviceFlowError(
        code,
        "The login was denied in the browser (access_denied).",
        "Run `tracker auth login` again and choose Approve, or use `tracker auth login --token`.",
      );
    case "invalid_client":
      return new DeviceFlowError(
        code,
        `The server does not accept this OAuth client ID (invalid_client${detail}).`,
        ctx.settings.selfHosted
          ? `Set TRACKER_CLIENT_ID to the client ID of a Public OAuth application at ${ctx.settings.baseUrl}/settings/account/api/applications/. ${tokenPageHint(ctx)}`
          : tokenPageHint(ctx),
      );
    default:
      return new DeviceFlowError(
        code,
        `The OAuth device flow failed (${error}${detail}).`,
        `Run \`tracker auth login\` again, or ${tokenPageHint(ctx).replace(/^C/, "c")}`,
      );
  }
}

/**
 * The verification page is where the user approves a login and types the code: a page on
 * another host than the service (a server, or a proxy, pointing elsewhere) would collect the
 * approval for someone else. Accepted: the service's own host or a subdomain of it (any sentry.io
 * host for the hosted service); anything else is refused before it is shown.
 */
function assertOnService(ctx: TrackerContext, raw: string): void {
  const url = URL.parse(raw);
  const service = URL.parse(ctx.settings.baseUrl);
  const host = url?.hostname.toLowerCase() ?? "";
  const own = service?.hostname.toLowerCase() ?? "";
  const ok =
    url !== null &&
    (url.protocol === "https:" || url.protocol === "http:") &&
    !url.username &&
    !url.password &&
    (host === own || host.endsWith(`.${own}`) || (isHostedHost(own) && isHostedHost(host)));
  if (ok) return;
  throw new DeviceFlowError(
    "unexpected_response",
    `The server sent a verification page on another host (${url ? url.host : "not a URL"}) than the service ${ctx.settings.baseUrl}; it is not shown and nothing was approved.`,
    `Check TRACKER_URL (or --url), or log in with a token created on the service: ${tokenPageHint(ctx).replace(/^C/, "c")}`,
  );
}

/** Step 1 (API.md 8.3): asks the control host for a device code and user code. */
export async function requestDeviceCode(
  ctx: TrackerContext,
  clientId: string,
  scopes: readonly string[] = OAUTH_SCOPES,
): Promise<DeviceCode> {
  let data: v.InferOutput<typeof DeviceCodeBody>;
  try {
    const res = await apiRequest(ctx, {
      method: "POST",
      path: "/oauth/device/code/",
      host: "control",
      auth: false,
      retry: false,
      form: { client_id: clientId, scope: scopes.join(" ") },
      schema: DeviceCodeBody,
      acceptStatuses: [400, 401, 403, 404, 405],
    });
    data = res.data;
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) throw unsupported(ctx, err);
    throw err;
  }
  if ("error" in data) throw protocolError(ctx, data.error, data.error_description);
  ctx.log.addSecret(data.device_code);
  const complete =
    data.verification_uri_complete ??
    `${data.verification_uri}${data.verification_uri.includes("?") ? "&" : "?"}user_code=${encodeURIComponent(data.user_code)}`;
  for (const uri of [data.verification_uri, complete]) assertOnService(ctx, uri);
  return {
    deviceCode: data.device_code,
    userCode: data.user_code,
    verificationUri: data.verification_uri,
    verificationUriComplete: complete,
    expiresInS: clampExpiresIn(data.expires_in),
    intervalS: clampInterval(data.interval),
  };
}

/** Options of pollForToken. */
export interface PollOptions {
  /** Called before each wait with the current interval (seconds); lets the UI show progress. */
  onWait?: (intervalS: number) => void;
}

/**
 * Step 2 (API.md 8.3): polls the token endpoint every interval (first poll after one interval)
 * until approval, a final error, or the code's lifetime ends. `slow_down` adds 5 s for good.
 * Waits stay within MIN_INTERVAL_S..MAX_INTERVAL_S and the whole flow within MAX_FLOW_S, so a
 * hostile or broken server can neither make the client spin nor keep it polling forever.
 * Waits go through ctx.sleep so tests can check the intervals without waiting.
 */
export async function pollForToken(
  ctx: TrackerContext,
  clientId: string,
  code: DeviceCode,
  opts: PollOptions = {},
): Promise<TokenGrant> {
  const deadline = ctx.now() + clampExpiresIn(code.expiresInS) * 1000;
  let intervalS = clampInterval(code.intervalS);
  for (;;) {
    opts.onWait?.(intervalS);
    await ctx.sleep(intervalS * 1000);
    if (ctx.now() >= deadline) throw protocolError(ctx, "expired_token");
    let data: v.InferOutput<typeof TokenBody>;
    try {
      const res = await apiRequest(ctx, {
        method: "POST",
        path: "/oauth/token/",
        host: "control",
        auth: false,
        // The poll is designed to be repeated, so a 5xx or dropped connection is retried.
        retry: true,
        form: {
          grant_type: "urn:ietf:params:oauth:grant-type:device_code",
          device_code: code.deviceCode,
          client_id: clientId,
        },
        schema: TokenBody,
        acceptStatuses: [400, 401, 403],
      });
      data = res.data;
    } catch (err) {
      if (err instanceof ApiError && err.status < 500) throw unsupported(ctx, err);
      throw err;
    }
    if ("access_token" in data) {
      ctx.log.addSecret(data.access_token);
      if (data.refresh_token) ctx.log.addSecret(data.refresh_token);
      return data;
    }
    if (data.error === "authorization_pending") continue;
    if (data.error === "slow_down") {
      intervalS = clampInterval(intervalS + SLOW_DOWN_STEP_S);
      ctx.log.debug(`Server asked to slow down; polling every ${intervalS} s`);
      continue;
    }
    throw protocolError(ctx, data.error, data.error_description);
  }
}

/** A progress indicator while waiting for approval. */
export interface WaitIndicator {
  stop(message?: string): void;
  fail(message?: string): void;
}

/**
 * A spinner on stderr when stderr is a colour-capable terminal and --json is off; otherwise a
 * single plain line. Ctrl-C during the spinner exits 130 without touching stored credentials.
 */
export async function startWaitIndicator(
  ctx: TrackerContext,
  json: boolean,
  text: string,
): Promise<WaitIndicator> {
  if (!json && ctx.isStderrTTY && ctx.color && canAnimate(ctx)) {
    const { startSpinner } = await import("../spinner.ts");
    const s = startSpinner(ctx, text);
    return { stop: (m) => s.stop(m ?? text), fail: (m) => s.fail(m ?? text) };
  }
  if (!json) ctx.stderr.write(`${text}\n`);
  return { stop: () => undefined, fail: () => undefined };
}
