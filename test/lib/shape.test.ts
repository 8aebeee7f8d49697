/**
 * `truncateJson` (--max-chars for JSON, and every MCP tool result): always within the bound,
 * identifiers, URLs and timestamps never cut, whole rows and fields before text, deterministic,
 * and linear enough for 10 MB and 20,000-level documents.
 */
import { describe, expect, test } from "bun:test";
import { toJsonText } from "../../src/lib/json-deep.ts";
import { parseFields, selectFields, truncateJson } from "../../src/lib/shape.ts";
import { fitJson } from "../../src/lib/trim/fit.ts";
import { isProtectedText } from "../../src/lib/trim/protect.ts";

type Doc = Record<string, unknown>;

function issue(i: number): Doc {
  return {
    id: String(4000 + i),
    shortId: `WEB-${(1000 + i).toString(36).toUpperCase()}`,
    title: `TypeError: Cannot read properties of undefined (reading 'field${i}') in a very long handler name`,
    culprit: `app/web/module${i}.js in handleRequestWithAVeryLongFunctionName`,
    permalink: `https://tracker.example/organizations/acme/issues/${4000 + i}/?project=1&query=is%3Aunresolved`,
    firstSeen: "2025-01-15T12:00:00.000Z",
    lastSeen: `2025-01-16T12:${String(i % 60).padStart(2, "0")}:00.123456Z`,
    count: String(i * 7),
    status: "unresolved",
    project: { id: "1", slug: "web-frontend-application", name: "Web" },
    metadata: { type: "TypeError", value: `Cannot read properties of undefined (reading 'field${i}')` },
    tags: [
      { key: "environment", value: "production" },
      { key: "browser", value: "Chrome 120.0.6099.129" },
    ],
  };
}

function issueList(n: number): Doc {
  return { data: Array.from({ length: n }, (_, i) => issue(i)), hasMore: true, nextCursor: "0:100:0" };
}

function event(): Doc {
  const frames = Array.from({ length: 12 }, (_, i) => ({
    filename: `app/web/module${i}.js`,
    function: `connectDb${i}`,
    lineNo: 40 + i,
    inApp: i % 2 === 0,
    context: [
      [40 + i, `  const items = await db.query("SELECT * FROM items WHERE owner = $1", [ownerId${i}]);`],
      [41 + i, `  return items.map((item) => transformTheItemForTheResponse(item, options${i}));`],
    ],
  }));
  const crumbs = Array.from({ length: 30 }, (_, i) => ({
    timestamp: `2025-01-15T12:00:${String(i).padStart(2, "0")}.000Z`,
    category: "navigation",
    message: `step ${i}: user navigated from /dashboard/projects/${i} to /dashboard/issues/${i}?sort=date`,
  }));
  return {
    id: "8f3a2b1c4d5e6f708192a3b4c5d6e7f8",
    eventID: "8f3a2b1c4d5e6f708192a3b4c5d6e7f8",
    groupID: "4158",
    title: "DatabaseError: connection refused while connecting to the primary replica of the cluster",
    message: `DatabaseError: connection refused. ${"The pool retried the connection and gave up. ".repeat(12)}`,
    dateCreated: "2025-01-15T12:00:30.000Z",
    permalink:
      "https://tracker.example/organizations/acme/issues/4158/events/8f3a2b1c4d5e6f708192a3b4c5d6e7f8/",
    entries: [
      {
        type: "exception",
        data: { values: [{ type: "DatabaseError", value: "connection refused", frames }] },
      },
      { type: "breadcrumbs", data: { values: crumbs } },
    ],
    contexts: {
      browser: { name: "Chrome", version: "120.0.6099.129" },
      os: { name: "Linux", kernel: "6.1.0" },
    },
    _meta: { entries: { "0": { data: { "": { rem: [["!limit", "s", 0, 10]] } } } } },
    sdk: { name: "tracker.javascript.browser", version: "8.9.0" },
  };
}

interface SpanDoc {
  span_id: string;
  description: string;
  start_timestamp: number;
  children: SpanDoc[];
}

/** A balanced binary tree of `n` spans, each with a children array. */
function traceTree(n: number, text = 30): Doc {
  const spans: SpanDoc[] = Array.from({ length: n }, (_, id) => ({
    span_id: id.toString(16).padStart(16, "0"),
    op: "db.query",
    description: `SELECT * FROM table_${id} WHERE owner = $1 `.repeat(text / 30 + 1),
    start_timestamp: 1768478400 + id,
    children: [],
  }));
  for (let i = 1; i < n; i++) (spans[(i - 1) >> 1] as SpanDoc).children.push(spans[i] as SpanDoc);
  return { traceId: "0123456789abcdef0123456789abcdef", roots: [spans[0]] };
}

/** A chain of `depth` spans, each the only child of the one before. */
function chain(depth: number): Doc {
  let node: Doc = { span_id: "leaf", description: "the deepest span", children: [] };
  for (let i = 0; i < depth; i++)
    node = { span_id: i.toString(16), description: `step ${i}`, children: [node] };
  return { traceId: "0123456789abcdef0123456789abcdef", roots: [node] };
}

const LONG_TEXT = `Error: something broke. ${"Lorem ipsum dolor sit amet, consectetur adipiscing. ".repeat(200)}`;

const DOCS: [string, () => unknown][] = [
  ["event", event],
  ["issue list", () => issueList(40)],
  ["trace", () => traceTree(60)],
  ["bare array", () => (issueList(20).data as unknown[]).slice()],
  ["bare long string", () => LONG_TEXT],
];

/** Every string of a document with its nearest object key, without recursion. */
function strings(doc: unknown): [string | undefined, string][] {
  const out: [string | undefined, string][] = [];
  const stack: [string | undefined, unknown][] = [[undefined, doc]];
  while (stack.length > 0) {
    const [key, v] = stack.pop() as [string | undefined, unknown];
    if (typeof v === "string") out.push([key, v]);
    else if (Array.isArray(v)) for (const x of v) stack.push([key, x]);
    else if (typeof v === "object" && v !== null)
      for (const [k, x] of Object.entries(v)) if (k !== "truncated") stack.push([k, x]);
  }
  return out;
}

describe("truncateJson: the bound", () => {
  test("compact text is always within maxChars, report included (200..3000 step 37)", () => {
    for (const [name, make] of DOCS) {
      const doc = make();
      for (let max = 200; max <= 3000; max += 37) {
        const text = toJsonText(truncateJson(doc, max));
        if (text.length > max) throw new Error(`${name} at ${max}: ${text.length} chars`);
      }
    }
  });

  test("fitJson(doc, n, 2) bounds the indented text a terminal gets", () => {
    for (const [name, make] of DOCS) {
      const doc = make();
      for (let max = 200; max <= 3000; max += 111) {
        const text = toJsonText(fitJson(doc, max, 2), 2);
        if (text.length > max) throw new Error(`${name} at ${max}: ${text.length} chars`);
      }
    }
  });

  test("a document that fits is returned as it is", () => {
    const doc = event();
    expect(truncateJson(doc, 1_000_000)).toBe(doc);
  });
});

describe("truncateJson: what is kept whole", () => {
  test("identifiers, URLs and timestamps are never cut; cut text ends in … and starts the original", () => {
    for (const [name, make] of DOCS.slice(0, 4)) {
      const doc = make();
      const originals = new Set(strings(doc).map(([, s]) => s));
      for (let max = 200; max <= 3000; max += 37) {
        for (const [key, s] of strings(truncateJson(doc, max))) {
          if (originals.has(s)) continue;
          const where = `${name} at ${max}, ${key}: ${s}`;
          expect(isProtectedText(key, s), where).toBe(false);
          expect(s.endsWith("…"), where).toBe(true);
          const prefix = s.slice(0, -1);
          expect(
            [...originals].some((o) => o.startsWith(prefix)),
            where,
          ).toBe(true);
        }
      }
    }
  });

  test("protection by key and by value", () => {
    for (const key of ["id", "shortId", "eventID", "traceId", "span_id", "slug", "hash", "version", "url"])
      expect(isProtectedText(key, "x".repeat(50))).toBe(true);
    for (const key of ["permalink", "webUrl", "timestamp", "dateCreated", "firstSeen", "lastSeen", "start"])
      expect(isProtectedText(key, "x".repeat(50))).toBe(true);
    expect(isProtectedText("message", "https://example.com/a/very/long/path")).toBe(true);
    expect(isProtectedText("value", "2025-01-15T12:00:00.000Z")).toBe(true);
    for (const key of ["message", "title", "culprit", "description", "value", "valid", "format"])
      expect(isProtectedText(key, "connection refused by the database server")).toBe(false);
  });

  test("a list keeps data, hasMore, nextCursor and its first rows whole, counting the rest", () => {
    const doc = issueList(200);
    const out = truncateJson(doc, 3000) as Doc;
    const rows = out.data as Doc[];
    expect(out.hasMore).toBe(true);
    expect(out.nextCursor).toBe("0:100:0");
    expect(rows.length).toBeGreaterThan(1);
    expect(rows).toEqual((doc.data as Doc[]).slice(0, rows.length));
    expect(out.truncated).toEqual({ data: 200 - rows.length });
  });
});

describe("truncateJson: order of removal and the report", () => {
  test("an event loses its last entries and frames from the end before any text is cut", () => {
    const doc = event();
    const out = truncateJson(doc, 2000) as Doc;
    expect(out.message).toBe(doc.message);
    expect(out.title).toBe(doc.title);
    expect(out.contexts).toEqual(doc.contexts);
    const report = out.truncated as Record<string, unknown>;
    expect(report).toMatchObject({ entries: 1, "entries.data.values.frames": 10 });
    const [exception] = out.entries as Doc[];
    expect(toJsonText(exception)).toContain('"function":"connectDb0"');
    expect(report["(strings shortened)"]).toBeUndefined();
    expect(toJsonText(out).length).toBeLessThanOrEqual(2000);
  });

  test("optional fields go whole before text is cut, reported as fields", () => {
    const doc = event();
    const out = truncateJson(doc, 900) as Doc;
    expect(out.id).toBe(doc.id);
    expect(out.eventID).toBe(doc.eventID);
    expect(out.permalink).toBe(doc.permalink);
    expect(out.dateCreated).toBe(doc.dateCreated);
    const report = out.truncated as Record<string, unknown>;
    const fields = Object.entries(report).filter(([, v]) => v === "field");
    expect(fields.length).toBeGreaterThan(0);
    for (const [path] of fields) expect(out[path]).toBeUndefined();
  });

  test("long free text is cut with …, counted under (strings shortened)", () => {
    const out = truncateJson({ id: "a1", message: LONG_TEXT, level: "error" }, 500) as Doc;
    expect(out.id).toBe("a1");
    expect(out.level).toBe("error");
    expect(String(out.message)).toEndWith("…");
    expect(LONG_TEXT.startsWith(String(out.message).slice(0, -1))).toBe(true);
    expect(out.truncated).toEqual({ "(strings shortened)": 1 });
  });

  test("a bare array or string is only fitted, without a report", () => {
    const arr = truncateJson(issueList(50).data, 1000);
    expect(Array.isArray(arr)).toBe(true);
    expect((arr as unknown[]).length).toBeGreaterThan(0);
    const text = truncateJson(LONG_TEXT, 300);
    expect(typeof text).toBe("string");
    expect(toJsonText(text).length).toBeLessThanOrEqual(300);
  });

  test("the same input gives the same output, and the input is not changed", () => {
    for (const [, make] of DOCS) {
      const doc = make();
      const before = toJsonText(doc);
      const a = toJsonText(truncateJson(doc, 700));
      expect(toJsonText(truncateJson(make(), 700))).toBe(a);
      expect(toJsonText(doc)).toBe(before);
    }
  });
});

describe("truncateJson: large and deep documents", () => {
  // Rough times on a 2-core machine (not asserted): 20,000-deep chain → 3,000 chars ~70 ms; the
  // 10 MB list → 5,000 ~350 ms, → 600,000 ~300 ms; the 7.8 MB 2,000-span tree ~20 ms.
  test("a 20,000-level chain of spans is trimmed, keeping the top of the chain", () => {
    const out = truncateJson(chain(20_000), 3000) as Doc;
    const text = toJsonText(out, 0, 20_001);
    expect(text.length).toBeLessThanOrEqual(3000);
    expect(text.length).toBeGreaterThan(2000);
    const root = (out.roots as Doc[])[0] as Doc;
    expect(root.span_id).toBe((19_999).toString(16));
    expect(out.traceId).toBe("0123456789abcdef0123456789abcdef");
  }, 20_000);

  test("10 MB of issues fits 5,000 and 600,000 chars", () => {
    const doc = issueList(20_000);
    expect(toJsonText(doc).length).toBeGreaterThan(10_000_000);
    for (const max of [5000, 600_000]) {
      const out = truncateJson(doc, max) as Doc;
      const text = toJsonText(out);
      expect(text.length).toBeLessThanOrEqual(max);
      expect(text.length).toBeGreaterThan(max * 0.8);
      expect((out.data as Doc[])[0]).toEqual(issue(0));
    }
  }, 20_000);

  test("a 2,000-span tree with long descriptions fits 5,000 and 600,000 chars", () => {
    const doc = traceTree(2000, 4000);
    for (const max of [5000, 600_000]) {
      const text = toJsonText(truncateJson(doc, max));
      expect(text.length).toBeLessThanOrEqual(max);
      expect(text).toContain('"span_id":"0000000000000000"');
    }
  }, 20_000);
});

test("--fields names keys that hold dots or parentheses as the service writes them", () => {
  const doc = { data: [{ "span.op": "db", "count()": 3, "p95(span.duration)": 12.5, nested: { a: 1 } }] };
  expect(selectFields(doc, parseFields("span.op,count(),p95(span.duration),nested.a"))).toEqual({
    data: [{ "span.op": "db", "count()": 3, "p95(span.duration)": 12.5, nested: { a: 1 } }],
  });
});
