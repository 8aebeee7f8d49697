import { describe, expect, test } from "bun:test";
import { maskToken, redact } from "../../src/lib/redact.ts";

const USER_TOKEN = `sntryu_${"a1".repeat(32)}`;
const ORG_TOKEN = `sntrys_eyJpYXQiOjE3MDAwMDAwMDB9_${"Qw".repeat(20)}`;
const OAUTH_TOKEN = "c3".repeat(32);

describe("redact", () => {
  test("tokens never survive, whatever surrounds them", () => {
    for (const token of [USER_TOKEN, ORG_TOKEN, OAUTH_TOKEN, "x".repeat(40)]) {
      for (const text of [
        token,
        `Authorization: Bearer ${token}`,
        `{"access_token":"${token}","token_type":"bearer"}`,
        `refresh_token=${token}&grant_type=refresh_token`,
        `url?token=${token}`,
        `(${token})`,
      ]) {
        expect(redact(text)).not.toContain(token);
        expect(redact(text)).toContain("[REDACTED]");
      }
    }
  });

  test("registered secrets are removed even when they look harmless", () => {
    expect(redact("the secret is abcd1234 ok", ["abcd1234"])).toBe("the secret is [REDACTED] ok");
    expect(redact("tiny abc", ["abc"])).toBe("tiny abc");
  });

  test("trace ids, event ids, URLs and ordinary prose stay readable", () => {
    const readable = [
      "trace 0123456789abcdef0123456789abcdef took 120 ms",
      "event ID 9f1c2e3d4b5a69788796a5b4c3d2e1f0",
      "GET https://us.sentry.io/api/0/organizations/acme/issues/?limit=25&cursor=0:100:0",
      "exit code: 2",
      "status code=404",
      "Invalid token: expired",
      "token_type: bearer",
      "Request failed with status 403",
      "the-very-long-project-slug-with-many-words-in-it-is-not-a-secret",
    ];
    for (const text of readable) expect(redact(text)).toBe(text);
  });

  test("Bearer keeps its label; key=value keeps the key", () => {
    expect(redact("Bearer abc")).toBe("Bearer [REDACTED]");
    expect(redact('"device_code": "dc-1234567890"')).toBe('"device_code": "[REDACTED]"');
  });
});

describe("maskToken", () => {
  test("keeps the kind prefix and the last 4 characters", () => {
    expect(maskToken(USER_TOKEN)).toBe("sntryu_****a1a1");
    expect(maskToken(OAUTH_TOKEN)).toBe("****c3c3");
    expect(maskToken("short")).toBe("****");
  });
});
