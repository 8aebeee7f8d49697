import { describe, expect, test } from "bun:test";
import { BUILT_IN_CLIENT_ID, oauthClientId } from "../../../src/lib/auth/client-id.ts";
import { shouldOpenBrowser } from "../../../src/lib/browser.ts";
import { classifyToken, decodeOrgClaim, parsePastedToken } from "../../../src/lib/auth/token-kind.ts";
import { AuthError, ConfigError } from "../../../src/lib/errors.ts";
import { createTestContext } from "../../helpers/context.ts";

function orgToken(claim: unknown, secret = "c2VjcmV0c2VjcmV0c2VjcmV0"): string {
  return `sntrys_${Buffer.from(JSON.stringify(claim)).toString("base64")}_${secret}`;
}

const CLAIM = {
  iat: 1767225600.5,
  url: "https://sentry.io",
  region_url: "https://us.sentry.io",
  org: "acme",
};

describe("classifyToken (API.md 8.1)", () => {
  test("user tokens by prefix", () => {
    expect(classifyToken(`sntryu_${"ab".repeat(32)}`)).toEqual({ kind: "user" });
    expect(classifyToken("sntryu_")).toBeUndefined();
    expect(classifyToken("sntryu_abc$def")).toBeUndefined();
  });

  test("org tokens: exactly two underscores and a base64 JSON claim with iat and url", () => {
    expect(classifyToken(orgToken(CLAIM))).toEqual({ kind: "org", claim: CLAIM });
    expect(decodeOrgClaim(orgToken(CLAIM))?.org).toBe("acme");
    expect(classifyToken(orgToken({ url: "https://sentry.io" }))).toBeUndefined();
    expect(classifyToken(orgToken({ iat: 1 }))).toBeUndefined();
    expect(classifyToken(`${orgToken(CLAIM)}_extra`)).toBeUndefined();
    expect(classifyToken("sntrys_bm90IGpzb24_secret")).toBeUndefined();
    expect(classifyToken(orgToken(CLAIM, ""))).toBeUndefined();
  });

  test("unprefixed tokens need 40+ letters and digits (OAuth or legacy)", () => {
    expect(classifyToken("a".repeat(40))).toEqual({ kind: "oauth" });
    expect(classifyToken("A1".repeat(32))).toEqual({ kind: "oauth" });
    expect(classifyToken("a".repeat(39))).toBeUndefined();
    expect(classifyToken(`${"a".repeat(40)}-`)).toBeUndefined();
  });

  test("other server prefixes are accepted as 'other'", () => {
    expect(classifyToken("sntrya_something")).toEqual({ kind: "other" });
    expect(classifyToken("sntryi_x")).toEqual({ kind: "other" });
  });

  test("whitespace and control characters are malformed", () => {
    expect(classifyToken(`sntryu_ab cd`)).toBeUndefined();
    expect(classifyToken(`${"a".repeat(40)}\u0000`)).toBeUndefined();
    expect(classifyToken("")).toBeUndefined();
  });

  test("parsePastedToken trims, and throws AuthError invalid on malformed or empty text", () => {
    expect(parsePastedToken(`  ${"a".repeat(40)}\n`)).toEqual({ token: "a".repeat(40), kind: "oauth" });
    for (const bad of ["   ", "hello", "sntrys_x_y"]) {
      let err: unknown;
      try {
        parsePastedToken(bad);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(AuthError);
      expect((err as AuthError).reason).toBe("invalid");
      expect((err as AuthError).exitCode).toBe(12);
    }
  });
});

describe("oauthClientId (API.md 8.5)", () => {
  test("hosted: TRACKER_CLIENT_ID, else the id compiled into release builds; a development build has none", () => {
    expect(oauthClientId(createTestContext({ env: { TRACKER_CLIENT_ID: "mine" } }).ctx)).toBe("mine");
    expect(BUILT_IN_CLIENT_ID).toBeUndefined();
    expect(() => oauthClientId(createTestContext().ctx)).toThrow(
      "This build of tracker has no OAuth client ID for sentry.io (development builds do not)",
    );
  });

  test("self-hosted: TRACKER_CLIENT_ID required", () => {
    const env = { TRACKER_URL: "https://sentry.example.com" };
    expect(oauthClientId(createTestContext({ env: { ...env, TRACKER_CLIENT_ID: "x" } }).ctx)).toBe("x");
    expect(() => oauthClientId(createTestContext({ env }).ctx)).toThrow(ConfigError);
    expect(() => oauthClientId(createTestContext({ env }).ctx)).toThrow(
      "OAuth requires `TRACKER_CLIENT_ID` for self-hosted instances",
    );
  });
});

describe("shouldOpenBrowser", () => {
  test("only on an interactive terminal, never in CI or with --json", () => {
    expect(shouldOpenBrowser(createTestContext({ tty: true }).ctx, false)).toBe(true);
    expect(shouldOpenBrowser(createTestContext({ tty: false }).ctx, false)).toBe(false);
    expect(shouldOpenBrowser(createTestContext({ tty: true }).ctx, true)).toBe(false);
    expect(shouldOpenBrowser(createTestContext({ tty: true, env: { CI: "true" } }).ctx, false)).toBe(false);
    expect(shouldOpenBrowser(createTestContext({ tty: true, env: { CI: "1" } }).ctx, false)).toBe(false);
    expect(shouldOpenBrowser(createTestContext({ tty: true, env: { CI: "false" } }).ctx, false)).toBe(true);
  });
});
