import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import traceList from "../../../src/commands/trace/list.ts";
import traceView from "../../../src/commands/trace/view.ts";
import { rememberTraces } from "../../../src/lib/db/recent-traces.ts";
import { ContextError, ResolutionError, ValidationError } from "../../../src/lib/errors.ts";
import {
  LARGE_TRACE_SPANS,
  TRACE_ERRORS,
  TRACE_GLOBEX,
  TRACE_LARGE,
  TRACE_NESTED,
  TRACE_ORPHAN,
  TRACE_TWINS,
} from "../../fake-api/routes/traces.ts";
import { USER_TOKEN } from "../../fake-api/seed.ts";
import { tempDir } from "../../helpers/cli.ts";
import { createTestContext } from "../../helpers/context.ts";
import { useFakeApi } from "../../helpers/fake-api.ts";

const api = useFakeApi();

const traceCalls = () => api.requestsTo(/^\/api\/0\/organizations\/[^/]+\/trace\//);

async function view(
  args: [string, string?],
  opts: { json?: boolean; env?: Record<string, string>; configDir?: string } = {},
) {
  const t = createTestContext({
    api,
    configDir: opts.configDir,
    env: { TRACKER_AUTH_TOKEN: USER_TOKEN, ...opts.env },
  });
  let error: Error | undefined;
  try {
    await traceView.call(
      t.ctx,
      { json: opts.json ?? true, verbose: false, fresh: false, web: false },
      ...args,
    );
  } catch (e) {
    error = e as Error;
  }
  const out = t.stdout();
  return { out, err: t.stderr(), error, json: !error && opts.json !== false ? JSON.parse(out) : undefined };
}

interface Span {
  spanId: string;
  parentSpanId: string | null;
  op: string | null;
  description: string | null;
  project: string | null;
  startTimestamp: number | null;
  timestamp: number | null;
  durationMs: number | null;
  selfTimeMs: number | null;
  isTransaction: boolean;
  orphan: boolean;
  errors: {
    eventId: string | null;
    issueId: string | null;
    shortId: string | null;
    level: string | null;
    title: string;
  }[];
  children: Span[];
}
/** An error as a span carries it; the trace's own error list adds where and when. */
const SPAN_ERROR = {
  eventId: v.nullable(v.string()),
  issueId: v.nullable(v.string()),
  shortId: v.nullable(v.string()),
  level: v.nullable(v.string()),
  title: v.string(),
};
const SpanSchema: v.GenericSchema<Span> = v.strictObject({
  spanId: v.string(),
  parentSpanId: v.nullable(v.string()),
  op: v.nullable(v.string()),
  description: v.nullable(v.string()),
  project: v.nullable(v.string()),
  startTimestamp: v.nullable(v.number()),
  timestamp: v.nullable(v.number()),
  durationMs: v.nullable(v.number()),
  selfTimeMs: v.nullable(v.number()),
  isTransaction: v.boolean(),
  orphan: v.boolean(),
  errors: v.array(v.strictObject(SPAN_ERROR)),
  children: v.array(v.lazy(() => SpanSchema)),
});
const ViewSchema = v.strictObject({
  traceId: v.string(),
  org: v.string(),
  spanCount: v.number(),
  errorCount: v.number(),
  durationMs: v.nullable(v.number()),
  projects: v.array(v.string()),
  roots: v.array(SpanSchema),
  errors: v.array(
    v.strictObject({
      ...SPAN_ERROR,
      project: v.nullable(v.string()),
      culprit: v.nullable(v.string()),
      timestamp: v.nullable(v.number()),
    }),
  ),
});

describe("trace view --json", () => {
  test("nested trace: documented shape, parent links, self time; request parameters", async () => {
    const { json, err } = await view([TRACE_NESTED, "acme"]);
    expect(err).toBe("");
    const doc = v.parse(ViewSchema, json);
    expect(doc).toMatchObject({
      traceId: TRACE_NESTED,
      org: "acme",
      spanCount: 14,
      errorCount: 0,
      projects: ["web", "api"],
    });
    const root = doc.roots[0] as Span;
    expect(doc.roots).toHaveLength(1);
    expect(root).toMatchObject({
      op: "http.server",
      description: "GET /api/users",
      parentSpanId: null,
      durationMs: 245,
      selfTimeMs: 37,
      isTransaction: true,
    });
    const stack = [...doc.roots];
    while (stack.length > 0) {
      const s = stack.pop() as Span;
      for (const c of s.children) {
        expect(c.parentSpanId).toBe(s.spanId);
        expect(c.startTimestamp as number).toBeGreaterThanOrEqual(s.startTimestamp as number);
      }
      stack.push(...s.children);
    }
    const [req] = traceCalls();
    expect(req?.path).toBe(`/api/0/organizations/acme/trace/${TRACE_NESTED}/`);
    expect(req?.host).toBe("us");
    expect(Object.fromEntries(req?.query ?? [])).toEqual({
      limit: "10000",
      project: "-1",
      statsPeriod: "14d",
    });
  });

  test("orphaned parent: extra root flagged orphan, event-only root keeps its event id", async () => {
    const { json } = await view([TRACE_ORPHAN, "acme"]);
    const roots = v.parse(ViewSchema, json).roots;
    expect(roots.map((r) => [r.description, r.orphan, r.parentSpanId])).toEqual([
      ["POST /api/orders", false, null],
      ["process_order", true, "ffff000011112222"],
      ["cron heartbeat", false, null],
    ]);
    expect(roots[2]?.spanId).toMatch(/^[0-9a-f]{32}$/);
  });

  test("errors on spans are carried in `errors` (published `description` or old `title`); an error root is a trace error, not a span", async () => {
    const { json } = await view([TRACE_ERRORS, "acme"]);
    const doc = v.parse(ViewSchema, json);
    expect(doc.errorCount).toBe(4);
    expect(doc.spanCount).toBe(3);
    expect(doc.roots).toHaveLength(1);
    expect(doc.roots[0]?.errors.map((e) => [e.shortId, e.title])).toEqual([
      ["WEB-1", "Error: checkout failed"],
    ]);
    expect(doc.roots[0]?.children[1]?.errors.map((e) => [e.issueId, e.level, e.title])).toEqual([
      ["4002", "error", "TypeError: Cannot read properties of undefined (reading 'amount')"],
      ["4003", "warning", "PaymentTimeout: upstream took too long"],
    ]);
    expect(doc.errors).toEqual([
      {
        eventId: expect.stringMatching(/^[0-9a-f]{32}$/),
        issueId: "4004",
        shortId: "API-4",
        level: "error",
        title: "KeyError: 'customer_id'",
        project: "api",
        culprit: "checkout(app/checkout.js)",
        timestamp: expect.any(Number),
      },
    ]);
    expect(doc.projects).toEqual(["web", "api"]);
  });

  test(`large trace: all ${LARGE_TRACE_SPANS} spans in the JSON, human output collapsed`, async () => {
    const { json } = await view([TRACE_LARGE, "acme"]);
    expect(v.parse(ViewSchema, json).spanCount).toBe(LARGE_TRACE_SPANS);
    const human = await view([TRACE_LARGE, "acme"], { json: false });
    expect(human.out.trim().split("\n").length).toBe(41);
    expect(human.out).toContain("×48 more like it (185ms each) (+1872 nested spans hidden)");
  });
});

describe("which trace and which org", () => {
  test("an 8-character prefix from trace list resolves to the full id and its org", async () => {
    const configDir = tempDir();
    const t = createTestContext({ api, configDir, env: { TRACKER_AUTH_TOKEN: USER_TOKEN } });
    await traceList.call(
      t.ctx,
      { json: true, verbose: false, fresh: false, limit: 10, sort: "date", period: "7d" },
      "acme/web",
    );
    api.reset();
    const { json, error } = await view(["AAAA1111"], { configDir });
    expect(error).toBeUndefined();
    expect(json.traceId).toBe(TRACE_NESTED);
    expect(traceCalls().map((r) => r.path)).toEqual([`/api/0/organizations/acme/trace/${TRACE_NESTED}/`]);
  });

  test("an ambiguous prefix lists every candidate and makes no request", async () => {
    const configDir = tempDir();
    const t = createTestContext({ api, configDir });
    rememberTraces(
      t.ctx,
      "acme",
      TRACE_TWINS.map((traceId) => ({ traceId, project: "web" })),
    );
    const { error } = await view(["abcdef01"], { configDir });
    expect(api.requests).toEqual([]);
    expect(error).toBeInstanceOf(ResolutionError);
    expect((error as ResolutionError).format()).toBe(
      [
        "Trace 'abcdef01' is ambiguous: 2 recently listed traces start with it.",
        "",
        "Pass more characters, or one of the full IDs below.",
        "",
        "Or:",
        `  - tracker trace view ${TRACE_TWINS[0]} acme  (listed in acme/web)`,
        `  - tracker trace view ${TRACE_TWINS[1]} acme  (listed in acme/web)`,
      ].join("\n"),
    );
    // more characters disambiguate
    const ok = await view(["abcdef01b"], { configDir });
    expect(ok.json.traceId).toBe(TRACE_TWINS[1]);
    expect(traceCalls().map((r) => r.path)).toEqual([`/api/0/organizations/acme/trace/${TRACE_TWINS[1]}/`]);
  });

  test("an unknown prefix is a ResolutionError saying where it looked", async () => {
    const { error } = await view(["0123abcd", "acme"]);
    expect(error).toBeInstanceOf(ResolutionError);
    expect(error?.message).toBe("Trace '0123abcd' matches no trace listed recently in acme.");
    expect(api.requests).toEqual([]);
  });

  test("malformed ids and targets are ValidationErrors", async () => {
    expect((await view(["not-a-trace"])).error).toBeInstanceOf(ValidationError);
    expect((await view(["abc"])).error?.message).toContain("a prefix needs at least 8 characters");
    expect((await view([TRACE_NESTED, "a/b/c"])).error?.message).toBe(
      "Invalid target 'a/b/c'. Use <org>, <org>/ or <org>/<project>.",
    );
    expect(api.requests).toEqual([]);
  });

  test("the target may come first; <org>/<project> uses only the org", async () => {
    const { json } = await view(["acme/web", TRACE_NESTED]);
    expect(json.traceId).toBe(TRACE_NESTED);
    expect(traceCalls()[0]?.path).toBe(`/api/0/organizations/acme/trace/${TRACE_NESTED}/`);
  });

  test("without a target or listing, the org comes from TRACKER_ORG (logged on stderr)", async () => {
    const { json, err } = await view([TRACE_GLOBEX], { env: { TRACKER_ORG: "globex" } });
    expect(json.org).toBe("globex");
    expect(err).toBe("Using organization globex (from TRACKER_ORG)\n");
    expect(traceCalls()[0]?.host).toBe("de");
  });

  test("no org anywhere: ContextError", async () => {
    const { error } = await view([TRACE_NESTED]);
    expect(error).toBeInstanceOf(ContextError);
    expect(error?.message).toBe("Organization is required.");
  });
});

describe("not found", () => {
  test("an unknown trace (200 []) is a ResolutionError naming the org", async () => {
    const { error, out } = await view([TRACE_GLOBEX, "acme"]);
    expect(out).toBe("");
    expect(error).toBeInstanceOf(ResolutionError);
    expect(error?.message).toBe(`Trace ${TRACE_GLOBEX} was not found in organization 'acme'.`);
    expect((error as ResolutionError).format()).toContain("older than 14d");
  });

  test("an org that does not exist (404) is a ResolutionError too", async () => {
    const { error } = await view([TRACE_NESTED, "nope"]);
    expect(error).toBeInstanceOf(ResolutionError);
    expect(error?.message).toBe(`Trace ${TRACE_NESTED} was not found in organization 'nope'.`);
    expect((error as ResolutionError).format()).toContain("not visible to this token");
  });

  test("a malformed API answer is an ApiError, not a crash", async () => {
    api.inject({
      path: `/api/0/organizations/acme/trace/${TRACE_NESTED}/`,
      status: 200,
      body: [{ span_id: 5 }],
    });
    const { error } = await view([TRACE_NESTED, "acme"]);
    expect(error?.name).toBe("ApiError");
    expect(error?.message).toStartWith("Unexpected response from GET /api/0/organizations/acme/trace/");
  });
});
