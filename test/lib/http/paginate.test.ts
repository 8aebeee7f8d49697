import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import * as v from "valibot";
import { apiRequest, apiRequestDeferred } from "../../../src/lib/http/client.ts";
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

  test("pipelines: the next request is sent before the current page is parsed", async () => {
    const t = setup();
    const events: string[] = [];
    let n = 0;
    const page = await fetchLimited(250, undefined, async (size, cursor) => {
      const id = ++n;
      events.push(`send ${id}`);
      const res = await apiRequestDeferred(t.ctx, {
        path: ISSUES,
        query: { limit: size, cursor },
        schema: Rows,
      });
      return {
        rows: () => {
          events.push(`parse ${id}`);
          return res.parse();
        },
        nextCursor: res.nextCursor,
      };
    });
    expect(events).toEqual(["send 1", "send 2", "parse 1", "send 3", "parse 2", "parse 3"]);
    expect(page.data.map((r) => r.n)).toEqual(ITEMS.slice(0, 250).map((r) => r.n));
    expect(page.nextCursor).toBe("0:250:0");
    expect(api.requestsTo(ISSUES).map((r) => r.query.get("limit"))).toEqual(["100", "100", "50"]);
  });

  test("a short page with deferred rows still ends exactly at the limit", async () => {
    let call = 0;
    const sizes: number[] = [];
    const page = await fetchLimited(7, undefined, async (size) => {
      const id = ++call;
      sizes.push(size);
      // The server answers with at most 2 rows per page but always says more exist.
      return { rows: () => Array.from({ length: Math.min(size, 2) }, () => id), nextCursor: `0:${id}:0` };
    });
    expect(page.data).toEqual([1, 1, 2, 2, 3, 3, 4]);
    expect(sizes).toEqual([7, 5, 3, 1]);
    expect(page.nextCursor).toBe("0:4:0");
  });

  test("a page that fails to parse fails the listing; the request already in flight is not left unhandled", async () => {
    const t = setup();
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on("unhandledRejection", onUnhandled);
    try {
      let n = 0;
      const run = fetchLimited(300, undefined, async (size, cursor) => {
        const id = ++n;
        if (id === 2) throw new Error("second page failed too");
        const res = await apiRequestDeferred(t.ctx, {
          path: ISSUES,
          query: { limit: size, cursor },
          schema: v.array(v.object({ n: v.string() })),
        });
        return { rows: () => res.parse(), nextCursor: res.nextCursor };
      });
      await expect(run).rejects.toThrow(/Unexpected response/);
      await Bun.sleep(5);
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  test(`never makes more than ${MAX_PAGES} requests`, async () => {
    let calls = 0;
    // Each page names a new cursor (a repeated one ends the listing: see below).
    const page = await fetchLimited(1000, undefined, async () => {
      calls++;
      return { rows: [], nextCursor: `0:${calls * 100}:0` };
    });
    expect(calls).toBe(MAX_PAGES);
    expect(page.data).toEqual([]);
    // Also when every page is full and requests are sent ahead.
    calls = 0;
    const full = await fetchLimited(100_000, undefined, async (size) => {
      calls++;
      return { rows: () => Array.from({ length: size }, () => calls), nextCursor: `0:${calls * 100}:0` };
    });
    expect(calls).toBe(MAX_PAGES);
    expect(full.data).toHaveLength(MAX_PAGES * 100);
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

describe("a next cursor that repeats", () => {
  test("fetchLimited stops instead of paging forever", async () => {
    let calls = 0;
    const page = await fetchLimited(1000, undefined, async () => {
      calls++;
      return { rows: [calls], nextCursor: "0:100:0" };
    });
    expect(calls).toBe(2);
    expect(page.data).toEqual([1, 2]);
    expect(page.nextCursor).toBeUndefined();
  });
});

describe("resuming inside a page (a listing shown in part)", () => {
  /** A server of 250 numbered rows with offset cursors, recording each request's size and cursor. */
  function server() {
    const asked: Array<[number, string | undefined]> = [];
    const fetchPage = async (size: number, cursor: string | undefined) => {
      asked.push([size, cursor]);
      const from = cursor ? Number(cursor.split(":")[1]) : 0;
      const rows = Array.from({ length: Math.max(0, Math.min(size, 250 - from)) }, (_, i) => from + i);
      const end = from + rows.length;
      return { rows, nextCursor: end < 250 ? `0:${end}:0` : undefined };
    };
    return { asked, fetchPage };
  }

  test("resumeAt names the page a row came from and how many of its rows to skip", async () => {
    const s = server();
    const page = await fetchLimited(150, undefined, s.fetchPage);
    expect(page.data).toHaveLength(150);
    expect(page.resumeAt?.(0)).toBeUndefined();
    expect(page.resumeAt?.(37)).toBe("@37");
    expect(page.resumeAt?.(100)).toBe("0:100:0");
    expect(page.resumeAt?.(120)).toBe("0:100:0@20");
    expect(page.resumeAt?.(150)).toBe(page.nextCursor);
  });

  test("a cursor with a skip continues exactly after the row shown, across the page boundary", async () => {
    const s = server();
    const first = await fetchLimited(100, undefined, s.fetchPage);
    const cursor = first.resumeAt?.(97) as string;
    const next = await fetchLimited(50, cursor, s.fetchPage);
    expect(next.data).toEqual(Array.from({ length: 50 }, (_, i) => 97 + i));
    // The skipped page is asked for the 3 rows it still holds plus the 97 skipped (≤ 100), then the rest.
    expect(s.asked.slice(1)).toEqual([
      [100, undefined],
      [47, "0:100:0"],
    ]);
    expect(next.resumeAt?.(0)).toBe("@97");
    expect(next.resumeAt?.(3)).toBe("0:100:0");
  });
});

describe("a next cursor that repeats, on a generic list", () => {
  test("fetchAllPages stops at the repeat: two requests, not fifty", async () => {
    const t = setup();
    const link = `<${api.url}${GENERIC}?cursor=0:100:0>; rel="next"; results="true"; cursor="0:100:0"`;
    api.inject({ path: GENERIC, status: 200, body: [{ n: 1 }], headers: { Link: link }, times: 2 });
    const all = await fetchAllPages(t.ctx, { path: GENERIC, host: "control", schema: Rows });
    expect(all).toEqual([{ n: 1 }, { n: 1 }]);
    expect(api.requestsTo(GENERIC).map((r) => r.query.get("cursor"))).toEqual([null, "0:100:0"]);
  });
});
