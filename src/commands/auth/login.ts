import type { TrackerContext } from "../../context.ts";
import { isoFromMs } from "../../lib/format/time.ts";
import { oauthClientId } from "../../lib/auth/client-id.ts";
import { pollForToken, requestDeviceCode, startWaitIndicator } from "../../lib/auth/device-flow.ts";
import { openBrowser, shouldOpenBrowser } from "../../lib/browser.ts";
import {
  type AuthUser,
  describeUser,
  fetchAuthUser,
  noTokenGiven,
  promptForToken,
  readTokenFromStdin,
  verifyToken,
  confirmReplace,
} from "../../lib/auth/login-token.ts";
import { envToken, withCandidateToken } from "../../lib/auth/token.ts";
import { chooseLoginUrl } from "../../lib/auth/login-url.ts";
import { parsePastedToken, type TokenKind } from "../../lib/auth/token-kind.ts";
import {
  otherLoginUrls,
  readCredentials,
  type StoredCredentials,
  writeCredentials,
} from "../../lib/db/auth.ts";
import { AuthError, ValidationError } from "../../lib/errors.ts";
import { loginScopes } from "../../lib/auth/scopes.ts";
import type { GlobalFlags } from "../../lib/flags.ts";
import { writeJson, writeLines, writeTip } from "../../lib/output.ts";
import { canPrompt } from "../../lib/automation.ts";

/** Flags of `tracker auth login`. */
export interface LoginFlags extends GlobalFlags {
  /** A token; "" when `--token` was given without a value (prompt or stdin). */
  readonly token?: string;
  /** Replace an existing login to the same service URL without asking. */
  readonly force?: boolean;
  /** The service to log in to, instead of TRACKER_URL or the only stored login. */
  readonly url?: string;
  /** Scopes to ask for beyond the defaults (device flow). */
  readonly scope?: readonly string[];
  /** Ask for a token that cannot change anything (device flow). */
  readonly readOnly?: boolean;
}

/** A pasted token, trimmed and classified. */
type PastedToken = ReturnType<typeof parsePastedToken>;

/** What a successful login reports. */
interface LoginResult {
  method: "oauth" | "token";
  kind: TokenKind;
  user: AuthUser | null;
  org: string | null;
  expiresAt: number | null;
  /** The scopes granted by a device-flow login; null for a pasted token. */
  scopes: string[] | null;
}

/** `tracker auth login`: OAuth device flow, or `--token` (argument, masked prompt, or stdin). */
export default async function authLogin(this: TrackerContext, flags: LoginFlags): Promise<void> {
  if (flags.token !== undefined && (flags.readOnly || (flags.scope ?? []).length > 0)) {
    throw new ValidationError(
      "--scope and --read-only go with the device flow; a pasted token keeps the scopes it was created with.",
      "scope",
    );
  }
  // Checked before anything is asked or replaced.
  const scopes = loginScopes({ readOnly: flags.readOnly, extra: flags.scope });
  // The token first: an org token's claim names the only service it is valid on.
  const pasted = flags.token === undefined ? undefined : await pastedToken(this, flags);
  chooseLoginUrl(this, flags.url, pasted);
  const previous = readCredentials(this);
  if (previous?.base_url === this.settings.baseUrl && !(await mayReplace(this, flags, previous))) {
    writeTip(this, `Kept the existing login to ${this.settings.baseUrl}.`);
    return;
  }
  const result =
    pasted === undefined ? await deviceLogin(this, flags, scopes) : await tokenLogin(this, pasted);
  report(this, flags, result, previous);
}

function storedUserText(c: StoredCredentials): string | undefined {
  try {
    return c.user_json ? describeUser(JSON.parse(c.user_json) as AuthUser) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether to replace a login to the same service URL: asked on an interactive terminal; with
 * --force, --json or without a terminal it is replaced (and the report says so).
 */
async function mayReplace(
  ctx: TrackerContext,
  flags: LoginFlags,
  previous: StoredCredentials,
): Promise<boolean> {
  if (flags.force || flags.json || !canPrompt(ctx)) return true;
  const who = storedUserText(previous);
  return confirmReplace(
    `You are already logged in to ${ctx.settings.baseUrl}${who ? ` as ${who}` : ""}. Replace this login?`,
  );
}

async function obtainToken(ctx: TrackerContext, flags: LoginFlags): Promise<string> {
  if (flags.token) return flags.token;
  if (!ctx.isStdinTTY) return readTokenFromStdin(ctx);
  if (!canPrompt(ctx) || flags.json) throw noTokenGiven();
  return promptForToken();
}

async function pastedToken(ctx: TrackerContext, flags: LoginFlags): Promise<PastedToken> {
  const raw = await obtainToken(ctx, flags);
  ctx.log.addSecret(raw.trim());
  return parsePastedToken(raw);
}

async function tokenLogin(ctx: TrackerContext, pasted: PastedToken): Promise<LoginResult> {
  const verified = await verifyToken(ctx, pasted.token, pasted);
  writeCredentials(ctx, {
    token: pasted.token,
    refresh_token: null,
    expires_at: null,
    issued_at: ctx.now(),
    kind: pasted.kind,
    base_url: ctx.settings.baseUrl,
    user_json: verified.user ? JSON.stringify(pickUser(verified.user)) : null,
  });
  return {
    method: "token",
    kind: pasted.kind,
    user: verified.user,
    org: verified.org?.slug ?? null,
    expiresAt: null,
    scopes: null,
  };
}

async function deviceLogin(
  ctx: TrackerContext,
  flags: LoginFlags,
  scopes: readonly string[],
): Promise<LoginResult> {
  const clientId = oauthClientId(ctx);
  const code = await requestDeviceCode(ctx, clientId, scopes);
  writeTip(
    ctx,
    [
      `Open ${code.verificationUri} and enter the code ${code.userCode}`,
      `  (or open ${code.verificationUriComplete})`,
      `The code expires in ${Math.round(code.expiresInS / 60)} min.`,
    ].join("\n"),
  );
  if (
    shouldOpenBrowser(ctx, flags.json) &&
    openBrowser(code.verificationUriComplete, ctx.settings.baseUrl, ctx.env) === "unsafe"
  ) {
    ctx.log.warn("Not opening the verification URL in a browser: it is not an https address of the service.");
  }
  const waiting = await startWaitIndicator(ctx, flags.json, "Waiting for approval in the browser…");
  let grant: Awaited<ReturnType<typeof pollForToken>>;
  try {
    grant = await pollForToken(ctx, clientId, code);
  } catch (err) {
    waiting.fail("Login did not complete");
    throw err;
  }
  waiting.stop("Approved");
  let user: AuthUser | null = grant.user?.id
    ? { id: grant.user.id, name: grant.user.name ?? null, email: grant.user.email ?? null }
    : null;
  if (!user) {
    // Org-bound OAuth tokens cannot read /auth/ (API.md 8.8): the login still counts.
    user = await fetchAuthUser(withCandidateToken(ctx, grant.access_token)).catch((err) => {
      if (err instanceof AuthError) return null;
      throw err;
    });
  }
  const now = ctx.now();
  const expiresAt = typeof grant.expires_in === "number" ? now + grant.expires_in * 1000 : null;
  writeCredentials(ctx, {
    token: grant.access_token,
    refresh_token: grant.refresh_token ?? null,
    expires_at: expiresAt,
    issued_at: now,
    kind: "oauth",
    base_url: ctx.settings.baseUrl,
    user_json: user ? JSON.stringify(pickUser(user)) : null,
    // Its refresh token is bound to this client: a later refresh must not depend on the environment.
    client_id: clientId,
    // What the server granted (it may grant less than asked), else what was asked.
    scopes: grant.scope ?? scopes.join(" "),
  });
  const granted = (grant.scope ?? scopes.join(" ")).split(" ").filter(Boolean);
  return { method: "oauth", kind: "oauth", user, org: null, expiresAt, scopes: granted };
}

function pickUser(u: AuthUser): {
  id: string;
  name: string | null;
  username: string | null;
  email: string | null;
} {
  return { id: u.id, name: u.name ?? null, username: u.username ?? null, email: u.email ?? null };
}

function report(ctx: TrackerContext, flags: LoginFlags, r: LoginResult, previous?: StoredCredentials): void {
  if (previous) {
    const who = storedUserText(previous);
    writeTip(
      ctx,
      previous.base_url === ctx.settings.baseUrl
        ? `Replaced the previous login to ${ctx.settings.baseUrl}${who ? ` (${who})` : ""}.`
        : "Replaced a stored login whose service URL was unknown (it could not be used).",
    );
  }
  // Logins to other services stay, side by side; TRACKER_URL selects one.
  const others = otherLoginUrls(ctx);
  if (others.length > 0) {
    writeTip(
      ctx,
      `Also logged in to ${others.join(", ")}; TRACKER_URL selects which login a command uses (\`tracker auth status\` lists them).`,
    );
  }
  const env = envToken(ctx);
  if (env) {
    writeTip(ctx, `Note: ${env.source} is set and takes precedence over the credentials just stored.`);
  }
  if (flags.json) {
    writeJson(ctx, {
      authenticated: true,
      method: r.method,
      kind: r.kind,
      baseUrl: ctx.settings.baseUrl,
      user: r.user ? pickUser(r.user) : null,
      org: r.org,
      expiresAt: isoFromMs(r.expiresAt),
      scopes: r.scopes,
      replaced: previous ? { baseUrl: previous.base_url } : null,
      otherLogins: others,
    });
    return;
  }
  const who = r.user ? `as ${describeUser(r.user)}` : r.org ? `with an org auth token for ${r.org}` : "";
  writeLines(ctx, `Logged in to ${ctx.settings.baseUrl}${who ? ` ${who}` : ""}.`);
  if (r.scopes) writeTip(ctx, `Token scopes: ${r.scopes.join(" ")}`);
}
