import { describe, expect, test } from "bun:test";
import type { RawTraceItem, TransactionRow } from "../../../src/lib/api/traces.ts";
import { formatDuration } from "../../../src/lib/format/duration.ts";
import { sanitizeTerminal } from "../../../src/lib/sanitize.ts";
import { listTime } from "../../../src/lib/format/time.ts";
import { formatTraceTable } from "../../../src/lib/format/trace-table.ts";
import { formatSpanLines, formatTraceTree, MAX_INDENT_DEPTH } from "../../../src/lib/format/trace-tree.ts";
import { buildSpanTree, splitTraceRoots, summarizeTrace } from "../../../src/lib/trace/span-tree.ts";
import {
  TRACE_ERRORS,
  TRACE_LARGE,
  TRACE_NESTED,
  TRACE_ORPHAN,
  traceStore,
} from "../../fake-api/routes/traces.ts";
import { createSeedState } from "../../fake-api/seed.ts";

const store = traceStore(
  createSeedState({ control: "http://127.0.0.1:1", us: "http://127.0.0.1:2", de: "http://127.0.0.1:3" }),
);

function render(traceId: string, opts: Parameters<typeof formatTraceTree>[1] = {}): string {
  const { spans, errors } = splitTraceRoots(store.trees.get(traceId)?.roots as unknown as RawTraceItem[]);
  const roots = buildSpanTree(spans);
  return formatTraceTree(
    { traceId, org: "acme", roots, errors, summary: summarizeTrace(roots, errors) },
    opts,
  ).join("\n");
}

describe("formatDuration", () => {
  test.each([
    [null, "-"],
    [-1, "-"],
    [0.42, "0.42ms"],
    [5, "5ms"],
    [7.34, "7.3ms"],
    [245.4, "245ms"],
    [999.4, "999ms"],
    [999.6, "1.00s"],
    [9876, "9.88s"],
    [12_345, "12.3s"],
    [125_000, "2m 05s"],
    [3_725_000, "1h 02m"],
  ])("%p → %p", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  test("timestamps: one style for every list, RFC 3339 seconds when piped, relative on a TTY", () => {
    const now = Date.parse("2026-01-15T12:00:00Z");
    expect(listTime("2026-01-15T11:59:00+00:00", now, false)).toBe("2026-01-15T11:59:00Z");
    expect(listTime("2026-01-15T13:59:00+02:00", now, false)).toBe("2026-01-15T11:59:00Z");
    expect(listTime("garbage", now, false)).toBe("garbage");
    expect(listTime("garbage", now, true)).toBe("garbage");
    expect(listTime(null, now, true)).toBe("-");
    expect(listTime("2026-01-15T11:59:40Z", now, true)).toBe("just now");
    expect(listTime("2026-01-15T11:55:00Z", now, true)).toBe("5m ago");
    expect(listTime("2026-01-15T09:00:00Z", now, true)).toBe("3h ago");
    expect(listTime("2026-01-13T12:00:00Z", now, true)).toBe("2d ago");
    expect(listTime("2025-11-01T12:00:00Z", now, true)).toBe("2mo ago");
    expect(listTime("2016-01-01T12:00:00Z", now, true)).toBe("10y ago");
  });

  test("timestamps far outside 0000-9999 never print 'Invalid Date' or a signed year", () => {
    const now = Date.parse("2026-01-15T12:00:00Z");
    for (const text of ["-000001-01-01T00:00:00Z", "+275760-09-13T00:00:00Z", "+300000-01-01T00:00:00Z"]) {
      for (const tty of [false, true]) {
        const shown = listTime(text, now, tty);
        expect(shown).not.toContain("Invalid");
        expect(shown).not.toMatch(/^[+-]\d{6}-\d\d-\d\dT\d\d:\d\d$/);
      }
    }
    expect(listTime("-000001-01-01T00:00:00Z", now, false)).toBe("-000001-01-01T00:00:00Z");
  });
});

describe("formatTraceTable", () => {
  const rows: TransactionRow[] = [
    {
      trace: "AAAA1111bbbb2222cccc3333dddd4444",
      id: "x",
      transaction: "GET /api/users",
      timestamp: "2026-01-15T11:59:00+00:00",
      "transaction.duration": 245,
      project: "web",
    },
    {
      trace: "facade00111122223333444455556666",
      id: "y",
      transaction: "POST /api/import/with/a/rather/long/transaction/name",
      timestamp: "2026-01-15T09:00:00+00:00",
      "transaction.duration": 9876,
      project: "web",
    },
  ];

  test("piped: tab-separated, full ids and names, milliseconds, RFC 3339 timestamps, no header (golden)", () => {
    expect(formatTraceTable(rows, { nowMs: Date.parse("2026-01-15T12:00:00Z") }).join("\n")).toBe(
      [
        "aaaa1111bbbb2222cccc3333dddd4444\tGET /api/users\t245\t2026-01-15T11:59:00Z",
        "facade00111122223333444455556666\tPOST /api/import/with/a/rather/long/transaction/name\t9876\t2026-01-15T09:00:00Z",
      ].join("\n"),
    );
  });

  test("TTY: the transaction is truncated to the width, times are relative (golden)", () => {
    expect(formatTraceTable(rows, { width: 60, nowMs: Date.parse("2026-01-15T12:00:00Z") }).join("\n")).toBe(
      [
        "TRACE ID  TRANSACTION                    DURATION  TIMESTAMP",
        "aaaa1111  GET /api/users                    245ms  1m ago",
        "facade00  POST /api/import/with/a/rath…     9.88s  3h ago",
      ].join("\n"),
    );
  });
});

describe("formatTraceTree (golden)", () => {
  test("nested trace across projects; a run of 6 identical queries is one line", () => {
    expect(render(TRACE_NESTED)).toBe(
      [
        "Trace aaaa1111bbbb2222cccc3333dddd4444 (acme)",
        "GET /api/users · 245ms · 14 spans · 0 errors · projects: web, api",
        "Started 2026-01-15T11:58:59Z",
        "",
        "DURATION      SELF  SPAN",
        "   245ms      37ms  http.server  GET /api/users  [web]",
        "     3ms            ├─ middleware.express  corsMiddleware",
        "    40ms            ├─ db.query  SELECT * FROM users WHERE org_id = $1",
        "    30ms            ├─ db.query  SELECT * FROM avatars WHERE user_id = $1  ×6 (5ms each)",
        "   120ms      10ms  ├─ http.client  GET http://api.internal/v1/permissions",
        "   110ms      78ms  │  └─ http.server  GET /v1/permissions  [api]",
        "    30ms            │     ├─ db.query  SELECT role FROM members WHERE user_id = %s",
        "     2ms            │     └─ cache.get  perm:12345",
        "    15ms            └─ serialize  render users",
      ].join("\n"),
    );
  });

  test("orphaned parent: extra roots, the missing parent is named", () => {
    expect(render(TRACE_ORPHAN)).toBe(
      [
        "Trace cafe0000111122223333444455556666 (acme)",
        "POST /api/orders · 901ms · 5 spans · 0 errors · projects: web, api",
        "Started 2026-01-15T11:40:59Z",
        "",
        "DURATION      SELF  SPAN",
        "   830ms     810ms  http.server  POST /api/orders  [web]",
        "    20ms            └─ db.query  INSERT INTO orders VALUES ($1, $2)",
        "   300ms     275ms  queue.process  process_order  [api]  (parent ffff000011112222 not in trace)",
        "    25ms            └─ db.query  UPDATE orders SET state = 'paid'",
        "     1ms            default  cron heartbeat  [api]",
      ].join("\n"),
    );
  });

  test("errors are marked on their spans and listed at the end", () => {
    const out = render(TRACE_ERRORS);
    const root = buildSpanTree(store.trees.get(TRACE_ERRORS)?.roots as unknown as RawTraceItem[])[0];
    const pay = root?.children[1]?.spanId;
    expect(out).toBe(
      [
        "Trace eeee0000111122223333444455556666 (acme)",
        "GET /checkout · 512ms · 3 spans · 4 errors · projects: web, api",
        "Started 2026-01-15T11:49:59Z",
        "",
        "DURATION      SELF  SPAN",
        "   512ms      20ms  http.server  GET /checkout  [web]  ✖ Error: checkout failed",
        "    12ms            ├─ db.query  SELECT * FROM carts WHERE id = $1",
        "   480ms            └─ http.client  POST https://payments.example.com/charge  ✖ TypeError: Cannot read properties of undefined (reading 'amount') (+1 more)",
        "",
        "Errors:",
        `  ✖ Error: checkout failed  (span ${root?.spanId}, http.server, issue 4001)`,
        `  ✖ TypeError: Cannot read properties of undefined (reading 'amount')  (span ${pay}, http.client, issue 4002)`,
        `  ✖ [warning] PaymentTimeout: upstream took too long  (span ${pay}, http.client, issue 4003)`,
        "  ✖ KeyError: 'customer_id'  (span not in the trace, api, issue 4004)",
      ].join("\n"),
    );
    // As a colour terminal shows it: tracker's own (marked) codes pass the sanitiser.
    const colored = sanitizeTerminal(render(TRACE_ERRORS, { color: true }), true).split("\n");
    expect(colored[5]).toStartWith("\x1b[31m");
    expect(colored[6]).not.toContain("\x1b[");
  });

  test("2,000-span trace: depth is capped, similar runs collapse, output stays short", () => {
    const lines = render(TRACE_LARGE).split("\n");
    expect(lines[1]).toBe("POST /api/import · 9.88s · 2000 spans · 0 errors · projects: web");
    expect(lines.length).toBe(5 + 1 + 30 + 5);
    const deep = lines.find((l) => l.includes("parseRecord level 29"));
    expect(deep).toBe(
      `    31ms            │${" ".repeat(3 * (MAX_INDENT_DEPTH - 1) - 1)}└─ [depth 30] function  parseRecord level 29`,
    );
    expect(lines.slice(-5)).toEqual([
      "   185ms      47ms  ├─ task.run  import batch 0",
      "   120ms            │  ├─ db.query  INSERT INTO records (id, payload) VALUES ($1, $2)  ×30 (3ms–5ms each)",
      "    18ms            │  └─ cache.set  records:batch-N:part-N  ×9 (2ms each)",
      "   8.88s            ├─ task.run  import batch N  ×48 more like it (185ms each) (+1872 nested spans hidden)",
      "   315ms            └─ http.client  POST https://hooks.example.com/notify/N  ×9 (35ms each)",
    ]);
  });

  test("on a TTY every line fits the terminal width", () => {
    const lines = render(TRACE_ERRORS, { width: 60 }).split("\n");
    for (const l of lines) expect(Bun.stringWidth(l)).toBeLessThanOrEqual(60);
    expect(lines[7]).toBe("   480ms            └─ http.client  POST https://payments.e…");
  });

  test("collapse threshold is configurable; runs with errors say how many", () => {
    const kids: RawTraceItem[] = Array.from({ length: 3 }, (_, i) => ({
      span_id: `c${i}`,
      op: "db",
      description: "SELECT 1",
      start_timestamp: i,
      end_timestamp: i + 0.5,
      errors: i === 1 ? [{ title: "deadlock" }] : [],
    }));
    const roots = buildSpanTree([
      { span_id: "r", op: "task", start_timestamp: 0, end_timestamp: 3, children: kids },
    ]);
    expect(formatSpanLines(roots, { collapseMin: 3 })).toEqual([
      "DURATION      SELF  SPAN",
      "   3.00s     1.50s  task",
      "   1.50s            └─ db  SELECT 1  ×3 (500ms each)  ✖ 1 error",
    ]);
  });
});
