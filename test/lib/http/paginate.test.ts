import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import * as v from "valibot";
import { apiRequest } from "../../../src/lib/http/client.ts";
import { fetchAllPages, fetchLimited, MAX_PAGES } from "../../../src/lib/http/paginate.ts";
import { paginate } from "../../fake-api/http.ts";
import { USER_TOKEN } from "../../fake-api/seed.ts";
import { type FakeApi, startFakeApi } from "../../fake-api/server.ts";
import { createTestContext } from "../../helpers/context.ts";

const ITEMS = Array.from({ length: 260 }, (_, i) => ({ n: i }));
const ISSUES = "/api/0/organizations/acme/numbers/";
const GENERIC = "/api/0/organizations/acme/generic/";

let api: FakeApi;
beforeAll(async () => {
  api = await startFakeApi({
    routes: [
      {
        method: "GET",
        pattern: ISSUES,
        hosts: "any",
        scopes: ["org:read"],
        handler: (req) => paginate(req, ITEMS, { sizeParam: "limit", defaultSize: 100 }),
      },
      {
        method: "GET",
        pattern: GENERIC,
        hosts: "any",
        scopes: ["org:read"],
        handler: (req) => paginate(req, ITEMS, { sizeParam: "per_page", defaultSize: 100 }),
      },
    ],
  });
});
afterAll(() => api.stop());
afterEach(() => {
  expect(api.unmatched).toEqual([]);
  api.reset();
});

const Rows = v.array(v.object({ n: v.number() }));
const setup = () => createTestContext({ api, env: { TRACKER_AUTH_TOKEN: USER_TOKEN } });

function pageFetcher(t: ReturnType<typeof setup>) {
  return async (size: number, cursor: string | undefined) => {
    const res = await apiRequest(t.ctx, { path: ISSUES, query: { limit: size, cursor }, schema: Rows });
    return { rows: res.data, nextCursor: res.nextCursor };
  };
}

describe("fetchLimited", () => {
  test("-n 250 asks for 100, 100, 50 and the cursor resumes exactly after row 250", async () => {
    const t = setup();
    const page = await fetchLimited(250, undefined, pageFetcher(t));
    expect(page.data.map((r) => r.n)).toEqual(ITEMS.slice(0, 250).map((r) => r.n));
    expect(api.requestsTo(ISSUES).map((r) => r.query.get("limit"))).toEqual(["100", "100", "50"]);
    expect(api.requestsTo(ISSUES).map((r) => r.query.get("cursor"))).toEqual([null, "0:100:0", "0:200:0"]);
    expect(page.nextCursor).toBe("0:250:0");

    api.reset();
    const rest = await fetchLimited(250, page.nextCursor, pageFetcher(t));
    expect(rest.data.map((r) => r.n)).toEqual(ITEMS.slice(250).map((r) => r.n));
    expect(rest.nextCursor).toBeUndefined();
    expect(api.requestsTo(ISSUES)).toHaveLength(1);
  });

  test("stops at the last page when fewer rows exist than asked", async () => {
    const t = setup();
    const page = await fetchLimited(1000, undefined, pageFetcher(t));
    expect(page.data).toHaveLength(260);
    expect(page.nextCursor).toBeUndefined();
    expect(api.requestsTo(ISSUES)).toHaveLength(3);
  });

  test("keeps paging when a page is short but next says results=true", async () => {
    let call = 0;
    const page = await fetchLimited(5, undefined, async (size) => {
      call++;
      return { rows: Array.from({ length: Math.min(size, 2) }, () => call), nextCursor: `0:${call}:0` };
    });
    expect(page.data).toEqual([1, 1, 2, 2, 3]);
    expect(page.nextCursor).toBe("0:3:0");
  });

  test(`never makes more than ${MAX_PAGES} requests`, async () => {
    let calls = 0;
    const page = await fetchLimited(1000, undefined, async () => {
      calls++;
      return { rows: [], nextCursor: "0:0:0" };
    });
    expect(calls).toBe(MAX_PAGES);
    expect(page.data).toEqual([]);
  });
});

describe("fetchAllPages", () => {
  test("pages a generic list with per_page=100 until results=false", async () => {
    const t = setup();
    const all = await fetchAllPages(t.ctx, { path: GENERIC, host: "control", schema: Rows });
    expect(all).toHaveLength(260);
    expect(api.requestsTo(GENERIC).map((r) => r.query.get("per_page"))).toEqual(["100", "100", "100"]);
  });
});
