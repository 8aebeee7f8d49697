import { describe, expect, test } from "bun:test";
import { nextCursorFromLink, parseLinkHeader } from "../../../src/lib/http/link.ts";

// The exact header shape of API.md §2.1 (both entries always present).
const FIRST_PAGE =
  '<https://us.sentry.io/api/0/organizations/acme/issues/?limit=100&query=is%3Aunresolved&cursor=1735689600000:0:1>; rel="previous"; results="false"; cursor="1735689600000:0:1", ' +
  '<https://us.sentry.io/api/0/organizations/acme/issues/?limit=100&query=is%3Aunresolved&cursor=1735689600000:100:0>; rel="next"; results="true"; cursor="1735689600000:100:0"';

describe("parseLinkHeader", () => {
  test("reads both entries with url, rel, results and cursor", () => {
    expect(parseLinkHeader(FIRST_PAGE)).toEqual([
      {
        url: "https://us.sentry.io/api/0/organizations/acme/issues/?limit=100&query=is%3Aunresolved&cursor=1735689600000:0:1",
        rel: "previous",
        results: false,
        cursor: "1735689600000:0:1",
      },
      {
        url: "https://us.sentry.io/api/0/organizations/acme/issues/?limit=100&query=is%3Aunresolved&cursor=1735689600000:100:0",
        rel: "next",
        results: true,
        cursor: "1735689600000:100:0",
      },
    ]);
  });

  test("percent-encoded commas and a raw comma inside <...> do not split entries", () => {
    const h =
      '<https://x/api/0/p/?query=a%2Cb%2C%20c&cursor=0:0:1>; rel="previous"; results="false"; cursor="0:0:1", ' +
      '<https://x/api/0/p/?query=a,b&cursor=0:5:0>; rel="next"; results="true"; cursor="0:5:0"';
    const entries = parseLinkHeader(h);
    expect(entries).toHaveLength(2);
    expect(entries[0]?.url).toBe("https://x/api/0/p/?query=a%2Cb%2C%20c&cursor=0:0:1");
    expect(entries[1]?.url).toBe("https://x/api/0/p/?query=a,b&cursor=0:5:0");
    expect(entries[1]?.cursor).toBe("0:5:0");
  });

  test("a request without other query params yields `?&cursor=` URLs", () => {
    const h =
      '<http://127.0.0.1:9/api/0/organizations/?&cursor=0:0:1>; rel="previous"; results="false"; cursor="0:0:1", ' +
      '<http://127.0.0.1:9/api/0/organizations/?&cursor=0:100:0>; rel="next"; results="true"; cursor="0:100:0"';
    const entries = parseLinkHeader(h);
    expect(entries.map((e) => e.url)).toEqual([
      "http://127.0.0.1:9/api/0/organizations/?&cursor=0:0:1",
      "http://127.0.0.1:9/api/0/organizations/?&cursor=0:100:0",
    ]);
    expect(nextCursorFromLink(h)).toBe("0:100:0");
  });

  test("empty, missing and garbage headers give no entries", () => {
    expect(parseLinkHeader(null)).toEqual([]);
    expect(parseLinkHeader(undefined)).toEqual([]);
    expect(parseLinkHeader("")).toEqual([]);
    expect(parseLinkHeader("not a link header")).toEqual([]);
  });

  test("attribute order and spacing do not matter", () => {
    const h = '<https://x/?&cursor=1:2:0> ;cursor="1:2:0";results="true" ; rel="next"';
    expect(parseLinkHeader(h)).toEqual([
      { url: "https://x/?&cursor=1:2:0", rel: "next", results: true, cursor: "1:2:0" },
    ]);
  });
});

describe("nextCursorFromLink", () => {
  test('next exists only when rel="next" says results="true"', () => {
    expect(nextCursorFromLink(FIRST_PAGE)).toBe("1735689600000:100:0");
    const last = FIRST_PAGE.replace('rel="next"; results="true"', 'rel="next"; results="false"');
    expect(nextCursorFromLink(last)).toBeUndefined();
  });

  test('a previous entry with results="true" is never followed for "more"', () => {
    const h =
      '<https://x/?&cursor=0:0:1>; rel="previous"; results="true"; cursor="0:0:1", ' +
      '<https://x/?&cursor=0:200:0>; rel="next"; results="false"; cursor="0:200:0"';
    expect(nextCursorFromLink(h)).toBeUndefined();
  });

  test("float and timestamp cursor values are passed through opaquely", () => {
    const h =
      '<https://x/?&cursor=1735689600.123:0:0>; rel="next"; results="true"; cursor="1735689600.123:0:0"';
    expect(nextCursorFromLink(h)).toBe("1735689600.123:0:0");
  });
});
