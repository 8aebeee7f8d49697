import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { ApiError, AuthError, PromptCancelled, ValidationError } from "../errors.ts";
import { apiRequest, isTrustedRegionUrl } from "../http/client.ts";
import { SCOPE_HINT } from "../http/errors.ts";
import { withCandidateToken } from "./token.ts";
import type { ClassifiedToken, OrgTokenClaim } from "./token-kind.ts";

/** The user behind a token (`GET /api/0/auth/`, API.md 8.6); other fields pass through. */
export const AuthUser = v.looseObject({
  id: v.string(),
  name: v.optional(v.nullable(v.string())),
  username: v.optional(v.nullable(v.string())),
  email: v.optional(v.nullable(v.string())),
});
/** A validated user. */
export type AuthUser = v.InferOutput<typeof AuthUser>;

const OrgSummary = v.looseObject({ id: v.string(), slug: v.string(), name: v.optional(v.string()) });

/** What verifying a token found out: its user (user-bound tokens) or its organization (org tokens). */
export interface VerifiedToken {
  user: AuthUser | null;
  org: { slug: string; name: string | null } | null;
}

/** The identity line shown after login and in status: `Name <email>`, or a fallback. */
export function describeUser(user: {
  name?: string | null;
  email?: string | null;
  username?: string | null;
}): string {
  const name = user.name?.trim() || user.username?.trim() || "";
  const email = user.email?.trim() || "";
  if (name && email && name !== email) return `${name} <${email}>`;
  return name || email || "unknown user";
}

/** The user of the token the context sends (GET /api/0/auth/ on the control host). */
export async function fetchAuthUser(ctx: TrackerContext): Promise<AuthUser> {
  const res = await apiRequest(ctx, { path: "/api/0/auth/", host: "control", schema: AuthUser });
  return res.data;
}

/** Where an org token's organization lives: its claimed region if trusted, else the base URL. */
export function orgTokenBaseUrl(ctx: TrackerContext, claim: OrgTokenClaim): string {
  const region = claim.region_url?.replace(/\/+$/, "");
  return region && isTrustedRegionUrl(ctx.settings.baseUrl, region) ? region : ctx.settings.baseUrl;
}

/** The organization of an org token, from its claim's org endpoint (API.md 8.6). */
export async function fetchOrgOfToken(
  ctx: TrackerContext,
  claim: OrgTokenClaim,
): Promise<{ slug: string; name: string | null }> {
  if (!claim.org) {
    throw new AuthError(
      "invalid",
      "The org auth token does not name its organization.",
      "Create a new org auth token.",
    );
  }
  const res = await apiRequest(ctx, {
    path: `/api/0/organizations/${encodeURIComponent(claim.org)}/`,
    host: { baseUrl: orgTokenBaseUrl(ctx, claim) },
    schema: OrgSummary,
  });
  return { slug: res.data.slug, name: res.data.name ?? null };
}

/**
 * Checks a token against the service before it is stored (API.md 8.6): user-bound tokens with
 * `/api/0/auth/`, org tokens with their organization. A 401 is AuthError `invalid` and nothing
 * is stored by the caller.
 */
export async function verifyToken(
  ctx: TrackerContext,
  token: string,
  kind: ClassifiedToken,
): Promise<VerifiedToken> {
  const probe = withCandidateToken(ctx, token);
  try {
    if (kind.kind === "org" && kind.claim) {
      const claimUrl = kind.claim.url.replace(/\/+$/, "");
      if (claimUrl && claimUrl !== ctx.settings.baseUrl) {
        ctx.log.warn(
          `This org token was issued by ${claimUrl}; it is checked against ${ctx.settings.baseUrl}.`,
        );
      }
      const claim = kind.claim;
      const org = await fetchOrgOfToken(probe, claim).catch((err) => {
        // 403 means the server accepted the token (a 401 would reject it) but its scopes are
        // narrow, e.g. the default `org:ci`: store it and say what it will not be able to do.
        if (err instanceof ApiError && err.status === 403 && claim.org) {
          ctx.log.warn(`This org token cannot read organization ${claim.org}. ${SCOPE_HINT}`);
          return { slug: claim.org, name: null };
        }
        throw err;
      });
      return { user: null, org };
    }
    return { user: await fetchAuthUser(probe), org: null };
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return unverified(ctx, kind);
    if (err instanceof AuthError && err.reason === "invalid") {
      throw new AuthError(
        "invalid",
        `The token was rejected by ${ctx.settings.baseUrl}; stored credentials were not changed.`,
        "Check that the token is complete and not revoked, and that TRACKER_URL points at the service that issued it.",
      );
    }
    throw err;
  }
}

/**
 * A server without the endpoint a token is checked with (compatible and older self-hosted servers
 * answer 404): the token cannot be checked there, so it is stored as it is, with a warning; a
 * wrong token then fails (exit 12) on the first command that uses it.
 */
function unverified(ctx: TrackerContext, kind: ClassifiedToken): VerifiedToken {
  const org = kind.kind === "org" ? kind.claim?.org : undefined;
  const endpoint = org ? `/api/0/organizations/${org}/` : "/api/0/auth/";
  ctx.log.warn(
    `${ctx.settings.baseUrl} answered 404 to ${endpoint}, so the token could not be checked; it is stored unverified (a wrong token fails on first use with exit 12).`,
  );
  return { user: null, org: org ? { slug: org, name: null } : null };
}

/** Reads a token from piped stdin; empty input is a ValidationError telling how to pass one. */
export async function readTokenFromStdin(ctx: TrackerContext): Promise<string> {
  const text = (await ctx.readStdin()).trim();
  if (!text) throw noTokenGiven();
  // Only the first line counts, so `echo "$TOKEN"` and files with a trailing newline both work.
  return (text.split(/\r?\n/)[0] ?? "").trim();
}

/** The error for `--token` without a value, without a terminal and without piped input. */
export function noTokenGiven(): ValidationError {
  return new ValidationError(
    'No token given. Pass it as `tracker auth login --token <TOKEN>`, or pipe it: `echo "$TOKEN" | tracker auth login --token`.',
    "token",
  );
}

/** Asks for the token with a masked prompt on the terminal (stderr); Ctrl-C is exit 130, nothing stored. */
export async function promptForToken(): Promise<string> {
  const { isCancel, password } = await import("@clack/prompts");
  const answer = await password({
    message: "Paste your token",
    mask: "*",
    input: process.stdin,
    output: process.stderr,
  });
  if (isCancel(answer)) throw new PromptCancelled("Login cancelled; stored credentials were not changed.");
  return answer;
}

/** Asks on the terminal whether to replace the current login (default No); Ctrl-C is exit 130. */
export async function confirmReplace(message: string): Promise<boolean> {
  const { confirm, isCancel } = await import("@clack/prompts");
  const answer = await confirm({
    message,
    initialValue: false,
    input: process.stdin,
    output: process.stderr,
  });
  if (isCancel(answer)) throw new PromptCancelled("Login cancelled; stored credentials were not changed.");
  return answer === true;
}
