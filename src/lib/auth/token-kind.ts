import * as v from "valibot";
import { AuthError } from "../errors.ts";

/** User auth token prefix (API.md 8.1). */
export const USER_TOKEN_PREFIX = "sntryu_";
/** Org auth token prefix (API.md 8.1). */
export const ORG_TOKEN_PREFIX = "sntrys_";
/** Minimum length of an unprefixed (OAuth or legacy) token. */
export const MIN_UNPREFIXED_LENGTH = 40;

/**
 * What a token is: `user` (sntryu_), `org` (sntrys_ with a claim), `oauth` (unprefixed, 40+
 * alphanumerics: OAuth access token or legacy user token), `other` (another sntry?_ prefix).
 */
export type TokenKind = "user" | "org" | "oauth" | "other";

/** The unsigned claim embedded in an org auth token. */
export const OrgTokenClaim = v.object({
  iat: v.number(),
  url: v.pipe(v.string(), v.minLength(1)),
  region_url: v.optional(v.nullable(v.string())),
  org: v.optional(v.nullable(v.string())),
});
/** A decoded org token claim. */
export type OrgTokenClaim = v.InferOutput<typeof OrgTokenClaim>;

/** A recognised token. */
export interface ClassifiedToken {
  kind: TokenKind;
  /** Present for org tokens. */
  claim?: OrgTokenClaim;
}

const PRINTABLE_NO_SPACE = /^[\x21-\x7e]+$/;
const OTHER_PREFIX = /^sntry[a-z]_./;

/** Human label of a token kind (status output). */
export function tokenKindLabel(kind: string | null | undefined): string {
  switch (kind) {
    case "user":
      return "user auth token";
    case "org":
      return "org auth token";
    case "oauth":
      return "OAuth token";
    case "other":
      return "token";
    default:
      return "token (kind unknown)";
  }
}

/** Decodes the claim of an org token; undefined when the shape is wrong (API.md 8.1). */
export function decodeOrgClaim(token: string): OrgTokenClaim | undefined {
  if (!token.startsWith(ORG_TOKEN_PREFIX)) return undefined;
  if (token.split("_").length !== 3) return undefined;
  const payload = token.slice(ORG_TOKEN_PREFIX.length, token.lastIndexOf("_"));
  const secret = token.slice(token.lastIndexOf("_") + 1);
  if (!payload || !secret || !/^[A-Za-z0-9+/=]+$/.test(payload)) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(payload, "base64").toString("utf8"));
    const r = v.safeParse(OrgTokenClaim, parsed);
    return r.success ? r.output : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The kind of a token, or undefined when it is malformed. Unknown `sntry?_` prefixes are
 * "other", not rejected: the server decides (API.md 8.1).
 */
export function classifyToken(token: string): ClassifiedToken | undefined {
  if (!PRINTABLE_NO_SPACE.test(token)) return undefined;
  if (token.startsWith(ORG_TOKEN_PREFIX)) {
    const claim = decodeOrgClaim(token);
    return claim ? { kind: "org", claim } : undefined;
  }
  if (token.startsWith(USER_TOKEN_PREFIX)) {
    return /^[A-Za-z0-9]+$/.test(token.slice(USER_TOKEN_PREFIX.length)) ? { kind: "user" } : undefined;
  }
  if (OTHER_PREFIX.test(token)) return { kind: "other" };
  if (token.length >= MIN_UNPREFIXED_LENGTH && /^[A-Za-z0-9]+$/.test(token)) return { kind: "oauth" };
  return undefined;
}

/** Trims and classifies a pasted token; a malformed one is AuthError `invalid` (before any request). */
export function parsePastedToken(raw: string): { token: string } & ClassifiedToken {
  const token = raw.trim();
  if (!token) {
    throw new AuthError(
      "invalid",
      "The token is empty.",
      "Pass the token with --token <TOKEN>, or pipe it on stdin.",
    );
  }
  const kind = classifyToken(token);
  if (!kind) {
    throw new AuthError(
      "invalid",
      "The token is malformed.",
      `Expected a user auth token (${USER_TOKEN_PREFIX}…), an org auth token (${ORG_TOKEN_PREFIX}…) or an OAuth token of ${MIN_UNPREFIXED_LENGTH} or more letters and digits, without spaces.`,
    );
  }
  return { token, ...kind };
}
