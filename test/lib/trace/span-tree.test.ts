import { describe, expect, test } from "bun:test";
import type { RawTraceItem } from "../../../src/lib/api/traces.ts";
import { COLLAPSE_RUN_MIN, groupSiblings, normalizeDescription } from "../../../src/lib/trace/collapse.ts";
import {
  splitTraceRoots,
  buildSpanTree,
  coveredMs,
  type SpanNode,
  summarizeTrace,
  walkSpans,
} from "../../../src/lib/trace/span-tree.ts";
import { looksLikeTraceRef, parseTraceRef } from "../../../src/lib/trace/trace-id.ts";
import { ValidationError } from "../../../src/lib/errors.ts";

const item = (id: string, start: number, end: number, extra: Partial<RawTraceItem> = {}): RawTraceItem => ({
  span_id: id,
  op: "db",
  description: `span ${id}`,
  start_timestamp: start,
  end_timestamp: end,
  ...extra,
});

describe("coveredMs", () => {
  test("overlapping and nested intervals count once, clipped to the parent", () => {
    expect(coveredMs(0, 1, [])).toBe(0);
    expect(
      coveredMs(0, 1, [
        [0.1, 0.3],
        [0.2, 0.4],
      ]),
    ).toBeCloseTo(300, 6);
    expect(
      coveredMs(0, 1, [
        [0.5, 0.6],
        [0.1, 0.2],
        [0.15, 0.18],
      ]),
    ).toBeCloseTo(200, 6);
    expect(
      coveredMs(0, 1, [
        [-1, 0.25],
        [0.9, 2],
      ]),
    ).toBeCloseTo(350, 6);
    expect(coveredMs(0, 1, [[2, 3]])).toBe(0);
  });
});

describe("buildSpanTree", () => {
  test("renames fields, sorts children by start, computes self time from the union of children", () => {
    const [root] = buildSpanTree([
      item("r", 10, 10.2, {
        parent_span_id: null,
        duration: 200,
        project_slug: "web",
        is_transaction: true,
        children: [
          item("b", 10.1, 10.15),
          item("a", 10.0, 10.08, { children: [item("c", 10.01, 10.02)] }),
          item("d", 10.12, 10.18),
        ],
      }),
    ]);
    const r = root as SpanNode;
    expect(r.spanId).toBe("r");
    expect(r.parentSpanId).toBeNull();
    expect(r.isTransaction).toBe(true);
    expect(r.orphan).toBe(false);
    expect(r.project).toBe("web");
    expect(r.children.map((c) => c.spanId)).toEqual(["a", "b", "d"]);
    // children cover 10.00-10.08 and 10.10-10.18: 160 ms of 200 ms
    expect(r.selfTimeMs).toBe(40);
    const a = r.children[0] as SpanNode;
    expect(a.durationMs).toBe(80);
    expect(a.selfTimeMs).toBe(70);
    // a leaf's self time is its duration
    expect(a.children[0]?.selfTimeMs).toBe(10);
  });

  test("orphans are roots with a parent id; event-only roots use the event id; old `timestamp` is read", () => {
    const roots = buildSpanTree([
      item("x", 5, 6, { parent_span_id: "ffff000011112222" }),
      { event_id: "e".repeat(32), start_timestamp: 1, timestamp: 1.5, transaction: "cron" },
    ]);
    expect(roots.map((r) => [r.spanId, r.orphan])).toEqual([
      ["e".repeat(32), false],
      ["x", true],
    ]);
    expect(roots[0]?.durationMs).toBe(500);
    expect(roots[0]?.description).toBe("cron");
  });

  test("missing timestamps give null durations and self times instead of NaN", () => {
    const [r] = buildSpanTree([{ span_id: "r", children: [{ span_id: "c" }] }]);
    expect(r?.durationMs).toBeNull();
    expect(r?.selfTimeMs).toBeNull();
    expect(r?.children[0]?.startTimestamp).toBeNull();
  });

  test("errors are mapped to {eventId, issueId, shortId, level, title}; the title is `description`, else the old `title`", () => {
    const [r] = buildSpanTree([
      item("r", 0, 1, {
        errors: [
          { event_id: "ev", issue_id: 4001, short_id: "WEB-1", level: "error", description: "TypeError: x" },
          { event_id: "old", issue_id: "4002", level: "warning", title: "Old: y" },
          {},
        ],
      }),
    ]);
    expect(r?.errors).toEqual([
      { eventId: "ev", issueId: "4001", shortId: "WEB-1", level: "error", title: "TypeError: x" },
      { eventId: "old", issueId: "4002", shortId: null, level: "warning", title: "Old: y" },
      { eventId: null, issueId: null, shortId: null, level: null, title: "(untitled error)" },
    ]);
  });

  test("a root item that is an error is an error of the trace, not a span", () => {
    const errorRoot = {
      event_id: "f".repeat(32),
      event_type: "error",
      issue_id: 4003,
      short_id: "API-3",
      level: "fatal",
      description: "KeyError: 'user'",
      culprit: "handler",
      project_slug: "api",
      start_timestamp: 0.4,
    };
    // An older server: no event_type, an issue id and no span id.
    const legacyRoot = { event_id: "a".repeat(32), issue_id: "4004", title: "Legacy", project_id: 7 };
    const { spans, errors } = splitTraceRoots([
      item("r", 0, 1, { project_slug: "web" }),
      errorRoot,
      legacyRoot,
    ]);
    expect(spans.map((s) => s.span_id)).toEqual(["r"]);
    expect(errors).toEqual([
      {
        eventId: "f".repeat(32),
        issueId: "4003",
        shortId: "API-3",
        level: "fatal",
        title: "KeyError: 'user'",
        project: "api",
        culprit: "handler",
        timestamp: 0.4,
      },
      {
        eventId: "a".repeat(32),
        issueId: "4004",
        shortId: null,
        level: null,
        title: "Legacy",
        project: "7",
        culprit: null,
        timestamp: null,
      },
    ]);
    const summary = summarizeTrace(buildSpanTree(spans), errors);
    expect([summary.spanCount, summary.errorCount, summary.projects]).toEqual([1, 2, ["web", "api", "7"]]);
    // A span-only root without a span id (published example) stays a span.
    expect(splitTraceRoots([{ event_id: "e", event_type: "span", op: "http.server" }]).spans).toHaveLength(1);
  });

  test("summary counts spans, errors, projects and the overall duration", () => {
    const roots = buildSpanTree([
      item("r", 0, 1, {
        project_slug: "web",
        description: "GET /",
        errors: [{ title: "boom" }],
        children: [item("c", 0.5, 1.5, { project_slug: "api" })],
      }),
      item("o", 2, 2.25, { parent_span_id: "gone", project_slug: "web" }),
    ]);
    expect(summarizeTrace(roots)).toEqual({
      spanCount: 3,
      errorCount: 1,
      durationMs: 2250,
      startTimestamp: 0,
      projects: ["web", "api"],
      rootTransaction: "GET /",
      depth: 2,
    });
  });

  test("a 5000-deep chain converts and walks without overflowing the stack", () => {
    let raw: RawTraceItem = item("leaf", 0, 1);
    for (let i = 0; i < 5000; i++)
      raw = { span_id: `s${i}`, start_timestamp: 0, end_timestamp: 1, children: [raw] };
    let max = 0;
    walkSpans(buildSpanTree([raw]), (_n, d) => {
      max = Math.max(max, d);
    });
    expect(max).toBe(5000);
  });
});

describe("groupSiblings", () => {
  const leaf = (op: string, description: string): SpanNode => ({
    spanId: description,
    parentSpanId: null,
    op,
    description,
    project: "web",
    startTimestamp: 0,
    timestamp: 1,
    durationMs: 1000,
    selfTimeMs: 1000,
    isTransaction: false,
    orphan: false,
    errors: [],
    children: [],
  });

  test(`collapses runs of ${COLLAPSE_RUN_MIN}+ similar siblings (digits ignored), keeps shorter runs`, () => {
    const kids = [
      leaf("db", "SELECT 1"),
      ...Array.from({ length: 5 }, (_, i) => leaf("cache.get", `user:${i}`)),
      leaf("db", "SELECT 2"),
      leaf("db", "SELECT 3"),
      leaf("http", "GET /x"),
    ];
    const groups = groupSiblings(kids);
    expect(groups.map((g) => (g.kind === "run" ? `run×${g.nodes.length}` : g.node.description))).toEqual([
      "SELECT 1",
      "run×5",
      "SELECT 2",
      "SELECT 3",
      "GET /x",
    ]);
    expect(normalizeDescription("records:batch-12:part-3")).toBe("records:batch-N:part-N");
  });
});

describe("parseTraceRef", () => {
  test("accepts full ids (any case, UUID dashes) and prefixes of 8-31 hex characters", () => {
    expect(parseTraceRef("AAAA1111bbbb2222cccc3333dddd4444")).toEqual({
      kind: "full",
      id: "aaaa1111bbbb2222cccc3333dddd4444",
    });
    expect(parseTraceRef(" aaaa1111-bbbb-2222-cccc-3333dddd4444 ")).toEqual({
      kind: "full",
      id: "aaaa1111bbbb2222cccc3333dddd4444",
    });
    expect(parseTraceRef("aaaa1111")).toEqual({ kind: "prefix", prefix: "aaaa1111" });
    expect(looksLikeTraceRef("acme/web")).toBe(false);
    expect(looksLikeTraceRef("aaaa1111")).toBe(true);
  });

  test.each([
    ["", "it is empty"],
    ["aaaa111", "a prefix needs at least 8 characters"],
    ["aaaa1111bbbb2222cccc3333dddd44445", "it has 33 characters"],
    ["zzzz1111bbbb2222cccc3333dddd4444", "it contains characters other than 0-9 and a-f"],
  ])("rejects %p: %s", (raw, why) => {
    let err: unknown;
    try {
      parseTraceRef(raw);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toBe(
      `Invalid trace ID '${raw}': ${why}. Expected 32 hexadecimal characters, or the 8-character prefix shown by \`tracker trace list\`.`,
    );
  });
});
