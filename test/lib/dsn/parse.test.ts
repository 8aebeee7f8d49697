import { describe, expect, test } from "bun:test";
import { findDsnsInText, parseDsn } from "../../../src/lib/dsn/parse.ts";

const KEY = "abc123def456abc123def456abc123de";

describe("parseDsn", () => {
  test("hosted DSN with region carries org id and region", () => {
    expect(parseDsn(`https://${KEY}@o100001.ingest.us.sentry.io/300001`)).toEqual({
      raw: `https://${KEY}@o100001.ingest.us.sentry.io/300001`,
      scheme: "https",
      publicKey: KEY,
      host: "o100001.ingest.us.sentry.io",
      pathPrefix: "",
      projectId: "300001",
      orgId: "100001",
      region: "us",
    });
  });

  test("older hosted host without region", () => {
    const d = parseDsn(`https://${KEY}@o42.ingest.sentry.io/7`);
    expect(d?.orgId).toBe("42");
    expect(d?.region).toBeUndefined();
  });

  test("self-hosted with port and path prefix; legacy secret is dropped", () => {
    const d = parseDsn(`http://${KEY}:0123456789abcdef0123456789abcdef@sentry.internal:9000/sentry/42`);
    expect(d).toMatchObject({
      raw: `http://${KEY}@sentry.internal:9000/sentry/42`,
      host: "sentry.internal:9000",
      pathPrefix: "sentry",
      projectId: "42",
      orgId: undefined,
    });
  });

  test("an ingest-looking host on a port is not treated as hosted", () => {
    expect(parseDsn(`https://${KEY}@o1.ingest.sentry.io:8443/5`)?.orgId).toBeUndefined();
  });

  test.each([
    "",
    "not a dsn",
    `ftp://${KEY}@host.com/1`,
    `https://short@host.com/1`,
    `https://${KEY}@host.com/`,
    `https://${KEY}@host.com/abc`,
    `https://${KEY}@/1`,
    `https://${KEY}@host.com:99999/1`,
    `https://${KEY}:${KEY}:${KEY}@host.com/1`,
    `https://${KEY}@ho st.com/1`,
  ])("rejects %p", (text) => {
    expect(parseDsn(text)).toBeUndefined();
  });
});

describe("parseDsn: legacy secret keys", () => {
  const key = "0123456789abcdef0123456789abcdef";
  test("a well-formed secret is accepted and dropped from the DSN", () => {
    const d = parseDsn(`https://${key}:${"f".repeat(32)}@o1.ingest.sentry.io/42`);
    expect(d?.raw).toBe(`https://${key}@o1.ingest.sentry.io/42`);
    expect(JSON.stringify(d)).not.toContain("f".repeat(32));
  });
  test("a malformed secret makes the text not a DSN", () => {
    expect(parseDsn(`https://${key}:not-a-key@o1.ingest.sentry.io/42`)).toBeUndefined();
    expect(parseDsn(`https://${key}:@o1.ingest.sentry.io/42`)).toBeUndefined();
  });
});

describe("findDsnsInText", () => {
  test("finds quoted and unquoted DSNs once each, in order", () => {
    const a = `https://${KEY}@o1.ingest.sentry.io/2`;
    const b = `http://${"f".repeat(32)}@localhost:9000/3`;
    const text = `init({dsn: "${a}"})\nDSN=${b}\nagain '${a}'`;
    expect(findDsnsInText(text).map((d) => d.raw)).toEqual([a, b]);
  });

  test("ignores URLs that are not DSNs", () => {
    expect(
      findDsnsInText("see https://sentry.io/organizations/acme/ and https://user@github.com/x/1"),
    ).toEqual([]);
  });
});
