/**
 * Trace data no sane server sends but a broken or hostile one can: 20,000 spans nested in one
 * chain, and times that are negative, huge or at the edge of what a Date holds. Each renders what
 * is valid (human and --json), marks what is not, and never crashes.
 */
import { describe, expect, test } from "bun:test";
import { writeCredentials } from "../../src/lib/db/auth.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestContext } from "../helpers/context.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const TRACE = "0123456789abcdef0123456789abcdef";
const PATH = `/api/0/organizations/acme/trace/${TRACE}/`;
const view = (extra: string[] = []) =>
  runCli(["trace", "view", TRACE, "acme", ...extra], { api, token: USER_TOKEN });

/** A chain of `depth` spans, each the only child of the one before, as JSON text (too deep for JSON.stringify). */
function chain(depth: number): string {
  const open: string[] = [];
  for (let i = 0; i < depth; i++) {
    const id = i.toString(16).padStart(16, "0");
    const start = 1768478400 + i / 1000;
    open.push(
      `{"span_id":"${id}","parent_span_id":${i === 0 ? "null" : `"${(i - 1).toString(16).padStart(16, "0")}"`},"op":"fn","description":"step ${i}","project_slug":"web","start_timestamp":${start},"end_timestamp":${start + 10},"children":[`,
    );
  }
  return `[${open.join("")}${"]}".repeat(depth)}]`;
}

/** Walks a JSON trace document's nesting with an explicit stack; the deepest level and span count. */
function measure(doc: { roots: unknown[] }): { depth: number; spans: number } {
  let depth = 0;
  let spans = 0;
  const stack: [{ children: unknown[] }, number][] = doc.roots.map((r) => [r as { children: unknown[] }, 1]);
  while (stack.length > 0) {
    const [n, d] = stack.pop() as [{ children: unknown[] }, number];
    spans++;
    depth = Math.max(depth, d);
    for (const c of n.children) stack.push([c as { children: unknown[] }, d + 1]);
  }
  return { depth, spans };
}

describe("a 20,000-deep span tree", () => {
  const DEPTH = 20_000;

  test("--json: every span, nested as sent", async () => {
    api.inject({ path: PATH, status: 200, raw: chain(DEPTH) });
    const r = await view(["--json"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.spanCount).toBe(DEPTH);
    expect(measure(doc)).toEqual({ depth: DEPTH, spans: DEPTH });
  }, 30_000);

  test("human: one line per span, indentation capped", async () => {
    api.inject({ path: PATH, status: 200, raw: chain(DEPTH) });
    const r = await view();
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    const lines = r.stdout.split("\n").filter((l) => l.includes("fn  step "));
    expect(lines).toHaveLength(DEPTH);
    const widest = Math.max(...lines.map((l) => l.length));
    expect(widest).toBeLessThan(300);
  }, 30_000);

  test("--format md and --fields work on it too", async () => {
    api.inject({ path: PATH, status: 200, raw: chain(DEPTH), times: 2 });
    const md = await view(["--format", "md", "--max-chars", "2000"]);
    expect(md.exitCode).toBe(0);
    expect(md.stdout.length).toBeLessThanOrEqual(2000);
    const fields = await view(["--fields", "spanCount,traceId"]);
    expect(fields.exitCode).toBe(0);
    expect(JSON.parse(fields.stdout)).toEqual({ spanCount: DEPTH, traceId: TRACE });
  }, 30_000);
});

describe("times out of range", () => {
  const spans = (start: number, end: number) =>
    JSON.stringify([
      {
        span_id: "a".repeat(16),
        parent_span_id: null,
        op: "http.server",
        description: "GET /",
        project_slug: "web",
        start_timestamp: start,
        end_timestamp: end,
        children: [
          {
            span_id: "b".repeat(16),
            parent_span_id: "a".repeat(16),
            op: "db",
            description: "q",
            project_slug: "web",
            start_timestamp: 1768478400,
            end_timestamp: 1768478401,
            children: [],
          },
        ],
      },
    ]);

  for (const [label, start, end] of [
    ["negative", -1e20, -1e20 + 5],
    ["huge", 1e20, 1e20 + 5],
    ["beyond Date's range", 8.7e12, 8.7e12 + 1],
    ["end before start", 1768478400, 1768478000],
    ["the largest double", Number.MAX_VALUE, Number.MAX_VALUE],
  ] as const) {
    test(`${label}: rendered, never "Invalid Date" or NaN`, async () => {
      api.inject({ path: PATH, status: 200, raw: spans(start, end), times: 2 });
      const human = await view();
      expect(human.exitCode).toBe(0);
      expect(human.stderr).toBe("");
      expect(human.stdout).not.toMatch(/Invalid Date|NaN/);
      expect(human.stdout).toContain("GET /");
      const json = await view(["--json"]);
      expect(json.exitCode).toBe(0);
      expect(json.stdout).not.toContain("NaN");
      expect(JSON.parse(json.stdout).spanCount).toBe(2);
    });
  }

  test("a stored login expiring at the largest integer: auth status shows it without crashing", async () => {
    const t = createTestContext({ api });
    writeCredentials(t.ctx, {
      token: USER_TOKEN,
      refresh_token: null,
      expires_at: Number.MAX_SAFE_INTEGER,
      issued_at: 0,
      kind: "user",
      base_url: api.url,
      user_json: null,
    });
    t.ctx.store.close();
    const r = await runCli(["auth", "status", "--json"], { api, configDir: t.ctx.configDir });
    expect(r.stderr).not.toMatch(/Invalid Date|RangeError/);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ expiresAt: null });
  });
});
