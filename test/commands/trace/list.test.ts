import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import traceList from "../../../src/commands/trace/list.ts";
import type { TraceListFlags } from "../../../src/commands/trace/index.ts";
import { findRecentTraces } from "../../../src/lib/db/recent-traces.ts";
import { ApiError, ResolutionError, ValidationError } from "../../../src/lib/errors.ts";
import { TRACE_NESTED, TRACE_TWINS, traceStore, WEB_RECENT_COUNT } from "../../fake-api/routes/traces.ts";
import { USER_TOKEN } from "../../fake-api/seed.ts";
import { tempDir } from "../../helpers/cli.ts";
import { createTestContext } from "../../helpers/context.ts";
import { useFakeApi } from "../../helpers/fake-api.ts";

const EVENTS = "/api/0/organizations/acme/events/";

const api = useFakeApi({
  afterReset: (a) => {
    traceStore(a.state).legacyOnly = false;
  },
});

function flags(extra: Partial<TraceListFlags> = {}): TraceListFlags {
  return { json: true, verbose: false, fresh: false, limit: 20, sort: "date", period: "7d", ...extra };
}

async function list(
  f: Partial<TraceListFlags>,
  target: string | undefined = "acme/web",
  configDir = tempDir(),
  tty = false,
) {
  const t = createTestContext({ api, configDir, tty, env: { TRACKER_AUTH_TOKEN: USER_TOKEN } });
  await traceList.call(t.ctx, flags(f), target);
  return { out: t.stdout(), err: t.stderr(), json: f.json === false ? undefined : JSON.parse(t.stdout()), t };
}

async function listError(f: Partial<TraceListFlags>, target?: string, env: Record<string, string> = {}) {
  const t = createTestContext({ api, env: { TRACKER_AUTH_TOKEN: USER_TOKEN, ...env } });
  try {
    await traceList.call(t.ctx, flags(f), target);
  } catch (e) {
    return { error: e as Error, out: t.stdout() };
  }
  throw new Error("expected the command to fail");
}

const sizes = () => api.requestsTo(EVENTS).map((r) => Number(r.query.get("per_page")));

const Item = v.object({
  traceId: v.pipe(v.string(), v.regex(/^[0-9a-f]{32}$/)),
  transaction: v.string(),
  durationMs: v.number(),
  timestamp: v.pipe(v.string(), v.isoTimestamp()),
  project: v.literal("web"),
  trace: v.string(),
  id: v.string(),
  "span.duration": v.number(),
});
const Wrapper = v.strictObject({
  data: v.array(Item),
  nextCursor: v.optional(v.string()),
  hasMore: v.boolean(),
});

describe("trace list paging", () => {
  test.each([
    [1, [1], true],
    [20, [20], true],
    [100, [100], true],
    [250, [100, 100, 50], true],
    [1000, [100, 100, 100, 100, 100, 100, 100, 100, 100, 100], true],
  ])("-n %d asks for %p and returns exactly that many", async (limit, expected, more) => {
    const { json } = await list({ limit });
    expect(sizes()).toEqual(expected);
    expect(json.data).toHaveLength(limit);
    expect(json.hasMore).toBe(more);
    expect(json.nextCursor).toBe(`0:${limit}:0`);
    // each follow-up request passes the previous page's cursor and keeps every other parameter
    const reqs = api.requestsTo(EVENTS);
    reqs.forEach((r, i) => {
      expect(r.query.get("cursor")).toBe(i === 0 ? null : `0:${i * 100}:0`);
      expect(r.query.getAll("field")).toEqual([
        "trace",
        "id",
        "transaction",
        "timestamp",
        "span.duration",
        "project",
      ]);
      // The documented form (API.md 7.1): transaction spans of the spans dataset.
      expect(r.query.get("dataset")).toBe("spans");
      expect(r.query.get("query")).toBe("is_transaction:true");
      expect(r.query.get("project")).toBe("300001");
      expect(r.query.get("sort")).toBe("-timestamp");
      expect(r.query.get("statsPeriod")).toBe("7d");
      expect(r.host).toBe("us");
    });
  });

  test("the JSON wrapper and items match the documented schema", async () => {
    const { json, err } = await list({ limit: 5 });
    expect(err).toBe("");
    const parsed = v.parse(Wrapper, json);
    expect(parsed.data[0]).toEqual({
      traceId: TRACE_NESTED,
      transaction: "GET /api/users",
      durationMs: 245,
      timestamp: "2026-01-15T11:59:00+00:00",
      project: "web",
      trace: TRACE_NESTED,
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      "span.duration": 245,
    });
    expect(Object.keys(json)).toEqual(["data", "hasMore", "nextCursor"]);
  });

  test("--sort duration sends -span.duration and yields slowest first", async () => {
    const { json } = await list({ limit: 30, sort: "duration" });
    expect(api.requestsTo(EVENTS)[0]?.query.get("sort")).toBe("-span.duration");
    const d = json.data.map((i: { durationMs: number }) => i.durationMs);
    expect(d).toEqual([...d].sort((a, b) => b - a));
  });

  test("--query is passed through; the end of results clears hasMore and nextCursor", async () => {
    const { json } = await list({ limit: 1000, query: 'transaction:"GET /checkout"' });
    expect(api.requestsTo(EVENTS)[0]?.query.get("query")).toBe(
      'is_transaction:true transaction:"GET /checkout"',
    );
    expect(json.data.length).toBeGreaterThan(100);
    expect(json.data.length).toBeLessThan(200);
    // stops at the page whose Link says results="false"
    expect(sizes()).toEqual([100, 100]);
    expect(json.data.every((i: { transaction: string }) => i.transaction === "GET /checkout")).toBe(true);
    expect(json).toEqual({ data: json.data, hasMore: false });
  });

  test("no results: an empty data array (JSON) or a note on stderr (human)", async () => {
    const { json } = await list({ query: "transaction:nothing-like-this" });
    expect(json).toEqual({ data: [], hasMore: false });
    const human = await list({ json: false, query: "transaction:nothing-like-this" });
    expect(human.out).toBe("");
    expect(human.err).toBe(
      "No traces found in acme/web matching transaction:nothing-like-this in the last 7d.\n",
    );
  });
});

describe("an older server without the spans dataset", () => {
  const legacy = () => {
    traceStore(api.state).legacyOnly = true;
  };

  test("a 400 to the documented form is asked again in the transactions form, and remembered per service", async () => {
    legacy();
    const configDir = tempDir();
    const { json } = await list({ limit: 150, sort: "duration" }, "acme/web", configDir);
    expect(json.data).toHaveLength(150);
    expect(json.data[0]).toMatchObject({
      durationMs: expect.any(Number),
      "transaction.duration": expect.any(Number),
    });
    const reqs = api.requestsTo(EVENTS);
    expect(reqs.map((r) => [r.query.get("dataset"), r.status])).toEqual([
      ["spans", 400],
      ["transactions", 200],
      ["transactions", 200],
    ]);
    expect(reqs[1]?.query.getAll("field")).toContain("transaction.duration");
    expect(reqs[1]?.query.get("sort")).toBe("-transaction.duration");
    expect(reqs[1]?.query.has("query")).toBe(false);
    api.reset();
    legacy();
    // The next run on the same config dir asks the legacy form straight away.
    await list({ limit: 5 }, "acme/web", configDir);
    expect(api.requestsTo(EVENTS).map((r) => r.query.get("dataset"))).toEqual(["transactions"]);
  });

  test("with a user query the fallback is used for the run but not remembered", async () => {
    legacy();
    const configDir = tempDir();
    await list({ limit: 5, query: "transaction:GET*" }, "acme/web", configDir);
    expect(api.requestsTo(EVENTS).map((r) => [r.query.get("dataset"), r.query.get("query")])).toEqual([
      ["spans", "is_transaction:true transaction:GET*"],
      ["transactions", "transaction:GET*"],
    ]);
    api.reset();
    // Nothing was remembered: the next run asks the documented form first again.
    await list({ limit: 5 }, "acme/web", configDir);
    expect(api.requestsTo(EVENTS).map((r) => r.query.get("dataset"))).toEqual(["spans", "transactions"]);
  });

  test("a malformed query refused by the legacy form is reported as the query's error", async () => {
    legacy();
    const { error } = await listError({ query: 'transaction:"GET' }, "acme/web");
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).detail).toContain("unbalanced quotes in 'transaction:\"GET'");
    expect(api.requestsTo(EVENTS).map((r) => r.status)).toEqual([400, 400]);
  });

  test("on a current server a malformed query is refused once, without asking the legacy form", async () => {
    const { error } = await listError({ query: 'transaction:"GET' }, "acme/web");
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).detail).toStartWith("Invalid search query: ");
    expect(api.requestsTo(EVENTS).map((r) => r.query.get("dataset"))).toEqual(["spans"]);
  });
});

describe("saved cursors", () => {
  test("-c last continues where the previous listing stopped, per sort; after the end it is an empty page", async () => {
    const dir = tempDir();
    const first = await list({ limit: 3 }, "acme/web", dir);
    await list({ limit: 2, sort: "duration" }, "acme/web", dir);
    api.reset();
    const second = await list({ limit: 3, cursor: "last" }, "acme/web", dir);
    expect(api.requestsTo(EVENTS)[0]?.query.get("cursor")).toBe("0:3:0");
    expect(second.json.data[0].traceId).not.toBe(first.json.data[0].traceId);
    expect(second.json.nextCursor).toBe("0:6:0");
    api.reset();
    // the duration sort kept its own position
    await list({ limit: 2, sort: "duration", cursor: "last" }, "acme/web", dir);
    const r = api.requestsTo(EVENTS)[0];
    expect([r?.query.get("sort"), r?.query.get("cursor")]).toEqual(["-span.duration", "0:2:0"]);
    // jump to the end with an explicit cursor: the saved position becomes "the end"
    const end = await list({ limit: 100, cursor: `0:${WEB_RECENT_COUNT - 10}:0` }, "acme/web", dir);
    expect(end.json.data).toHaveLength(10);
    expect(end.json.hasMore).toBe(false);
    api.reset();
    const past = await list({ cursor: "last" }, "acme/web", dir);
    expect(past.json).toEqual({ data: [], hasMore: false });
    expect(api.requestsTo(EVENTS)).toEqual([]);
    const human = await list({ json: false, cursor: "last" }, "acme/web", dir);
    expect(human.out).toBe("");
    expect(human.err).toBe(
      "No more traces in acme/web: the previous page was the last. Run without -c last to start again.\n",
    );
  });

  test("a different query has its own saved state", async () => {
    const dir = tempDir();
    await list({ limit: 2 }, "acme/web", dir);
    const t = createTestContext({ api, configDir: dir, env: { TRACKER_AUTH_TOKEN: USER_TOKEN } });
    let err: unknown;
    try {
      await traceList.call(t.ctx, flags({ cursor: "last", query: "GET" }), "acme/web");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toStartWith("No saved position to continue from");
  });

  test("listed trace ids are remembered for trace view", async () => {
    const { t } = await list({ limit: 10 });
    expect(findRecentTraces(t.ctx, "abcdef01").map((r) => [r.org, r.trace_id, r.project])).toEqual([
      ["acme", TRACE_TWINS[0], "web"],
      ["acme", TRACE_TWINS[1], "web"],
    ]);
    expect(findRecentTraces(t.ctx, "aaaa1111", "globex")).toEqual([]);
  });
});

describe("human output", () => {
  test("terminal: table, relative times, footer with the exact next-page command on stderr (golden)", async () => {
    const { out, err } = await list(
      { json: false, limit: 4, sort: "duration", query: "GET /api" },
      "acme/web",
      tempDir(),
      true,
    );
    const lines = out.trimEnd().split("\n");
    expect(lines[0]).toBe("TRACE ID  TRANSACTION            DURATION  TIMESTAMP");
    expect(lines).toHaveLength(5);
    for (const line of lines.slice(1)) {
      expect(line).toMatch(/^[0-9a-f]{8} {2}GET \/api\/\S+ +\d\.\d\ds {2}(\d+[mhd] ago|just now)$/);
    }
    expect(err).toBe(
      "Showing 4 traces from acme/web (slowest first, last 7d). More available; next page:\n" +
        "  tracker trace list acme/web -s duration -q 'GET /api' -n 4 -c last\n" +
        "View a trace: tracker trace view <TRACE ID>\n",
    );
  });

  test("terminal: the default listing at the fixed clock (golden)", async () => {
    const { out } = await list({ json: false, limit: 3 }, "acme/web", tempDir(), true);
    expect(out).toBe(
      [
        "TRACE ID  TRANSACTION       DURATION  TIMESTAMP",
        "aaaa1111  GET /api/users       245ms  1m ago",
        "eeee0000  GET /checkout        512ms  10m ago",
        "cafe0000  POST /api/orders     830ms  19m ago",
        "",
      ].join("\n"),
    );
  });

  test("piped: tab-separated rows with full trace IDs, milliseconds and RFC 3339 times, no header, no footer (golden)", async () => {
    const { out, err } = await list({ json: false, limit: 6 });
    expect(out).toBe(
      [
        "aaaa1111bbbb2222cccc3333dddd4444\tGET /api/users\t245\t2026-01-15T11:59:00Z",
        "eeee0000111122223333444455556666\tGET /checkout\t512\t2026-01-15T11:50:00Z",
        "cafe0000111122223333444455556666\tPOST /api/orders\t830\t2026-01-15T11:41:00Z",
        "facade00111122223333444455556666\tPOST /api/import\t9876\t2026-01-15T11:32:00Z",
        "abcdef01aaaaaaaaaaaaaaaaaaaaaaaa\tGET /api/search\t61\t2026-01-15T11:23:00Z",
        "abcdef01bbbbbbbbbbbbbbbbbbbbbbbb\tGET /api/search\t58\t2026-01-15T11:14:00Z",
        "",
      ].join("\n"),
    );
    expect(err).toBe("");
  });
});

describe("targets and failures", () => {
  test("TRACKER_ORG/TRACKER_PROJECT are used when no target is given", async () => {
    const t = createTestContext({
      api,
      env: { TRACKER_AUTH_TOKEN: USER_TOKEN, TRACKER_ORG: "globex", TRACKER_PROJECT: "web" },
    });
    await traceList.call(t.ctx, flags({ limit: 2 }), undefined);
    expect(api.requestsTo("/api/0/organizations/globex/events/")[0]?.query.get("project")).toBe("300011");
    expect(api.requestsTo("/api/0/organizations/globex/events/")[0]?.host).toBe("de");
    expect(t.stderr()).toBe("Using globex/web (from TRACKER_ORG/TRACKER_PROJECT)\n");
  });

  test("unknown project: ResolutionError naming it", async () => {
    const { error } = await listError({}, "acme/nope");
    expect(error).toBeInstanceOf(ResolutionError);
    expect(error.message).toBe("Project 'acme/nope' was not found.");
    expect(api.requestsTo(EVENTS)).toEqual([]);
  });

  test("a malformed query is an ApiError (400) carrying the API's detail", async () => {
    const { error, out } = await listError({ query: 'transaction:"GET' }, "acme/web");
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe("Request failed with status 400");
    expect((error as ApiError).detail).toStartWith("Invalid search query: ");
    expect((error as ApiError).detail).toContain(
      "unbalanced quotes in 'is_transaction:true transaction:\"GET'",
    );
    expect(out).toBe("");
  });

  test("a token without event:read gets the API's 403 with the scope hint", async () => {
    api.state.tokens.set("sntryu_noevents", {
      userId: "12345",
      scopes: ["org:read", "project:read"],
      kind: "user",
    });
    const { error } = await listError({}, "acme/web", { TRACKER_AUTH_TOKEN: "sntryu_noevents" });
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(403);
  });
});
