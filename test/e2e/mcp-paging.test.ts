/**
 * MCP list tools page without skipping: every list tool, walked with its nextCursor under a small
 * maxChars, returns exactly the rows of one unbounded call, and each accepts `cursor`.
 */
import { describe, expect, test } from "bun:test";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { useFakeApi } from "../helpers/fake-api.ts";
import { type McpSession, startMcp } from "../helpers/mcp-client.ts";

const api = useFakeApi();

interface Tool {
  name: string;
  args: Record<string, unknown>;
  key: (row: Record<string, unknown>) => unknown;
  /** A maxChars that fits a row or two of this tool's rows, never ten. */
  bound?: number;
}

const TOOLS: Tool[] = [
  { name: "issue_list", args: { target: "acme/web" }, key: (r) => r.id },
  { name: "issue_events", args: { issue: "acme/WEB-4Y" }, key: (r) => r.eventID },
  { name: "trace_list", args: { target: "acme/web" }, key: (r) => r.traceId },
  { name: "log_search", args: { target: "acme/web" }, key: (r) => r.id },
  { name: "span_search", args: { target: "acme/web" }, key: (r) => r.id },
  {
    name: "query",
    args: {
      target: "acme/web",
      dataset: "spans",
      select: ["id", "span.op", "timestamp"],
      sort: "-timestamp",
    },
    key: (r) => r.id,
    bound: 800,
  },
  { name: "release_list", args: { target: "acme/" }, key: (r) => r.version },
  { name: "attribute_list", args: { target: "acme/web", dataset: "spans" }, key: (r) => r.key, bound: 500 },
];

async function call(
  s: McpSession,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const a = await s.request("tools/call", { name, arguments: args });
  expect(a.error).toBeUndefined();
  const result = a.result as { isError?: boolean; content: { text: string }[] };
  expect(result.isError).toBeUndefined();
  return JSON.parse(result.content[0]?.text ?? "null");
}

describe.each(TOOLS)("$name", ({ name, args, key, bound = 1500 }) => {
  test("paged with nextCursor under a small maxChars, it returns every row of one unbounded call", async () => {
    const s = startMcp([], { api, token: USER_TOKEN });
    try {
      await s.request("initialize", {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "paging-test", version: "1" },
      });
      const full = ((await call(s, name, { ...args, limit: 30, maxChars: 1_000_000 })).data as []).map(key);
      expect(full.length).toBeGreaterThan(5);
      const seen: unknown[] = [];
      let cursor: string | undefined;
      let cut = 0;
      for (let pages = 0; pages < 100 && seen.length < full.length; pages++) {
        const doc = await call(s, name, {
          ...args,
          limit: 10,
          maxChars: bound,
          ...(cursor ? { cursor } : {}),
        });
        const rows = doc.data as Record<string, unknown>[];
        expect(rows.length).toBeGreaterThan(0);
        if (rows.length < Math.min(10, full.length - seen.length)) cut++;
        seen.push(...rows.map(key));
        if (!doc.hasMore) break;
        cursor = doc.nextCursor as string;
      }
      expect(cut).toBeGreaterThan(0);
      expect(seen.slice(0, full.length)).toEqual(full);
    } finally {
      await s.close();
    }
  });
});
