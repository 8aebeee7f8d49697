/** MCP: the window and environment arguments of the list tools, and the attribute_list tool (issue 34). */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { useFakeApi } from "../helpers/fake-api.ts";
import { type McpSession, startMcp } from "../helpers/mcp-client.ts";

const api = useFakeApi();
let s: McpSession;

beforeAll(async () => {
  s = startMcp([], { api, token: USER_TOKEN });
  await s.request("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "windows-test", version: "1" },
  });
});
afterAll(async () => {
  await s.close();
});

async function call(name: string, args: Record<string, unknown>) {
  const a = await s.request("tools/call", { name, arguments: args });
  expect(a.error).toBeUndefined();
  const result = a.result as { isError?: boolean; content: { text: string }[] };
  return { isError: result.isError === true, doc: JSON.parse(result.content[0]?.text ?? "null") };
}

const windowOf = (path: string) =>
  api
    .requestsTo(path)
    .map((r) => [
      r.query.get("statsPeriod"),
      r.query.get("start"),
      r.query.get("end"),
      r.query.getAll("environment"),
      r.query.get("query"),
    ]);

describe("list tools take period, start/end and environment", () => {
  test("issue_list with an absolute period and environments", async () => {
    const r = await call("issue_list", {
      target: "acme/web",
      period: "2026-01-15T09:00..2026-01-15T10:30",
      environment: ["production", "staging"],
      limit: 2,
    });
    expect(r.isError).toBe(false);
    expect(windowOf("/api/0/organizations/acme/issues/")).toEqual([
      [null, "2026-01-15T09:00:00.000Z", "2026-01-15T10:30:00.000Z", ["production", "staging"], null],
    ]);
  });

  test("log_search, span_search, trace_list and query with start/end (a relative start is no flag)", async () => {
    for (const [name, extra] of [
      ["log_search", {}],
      ["span_search", {}],
      ["trace_list", {}],
      ["query", { dataset: "spans", select: ["count()"] }],
    ] as const) {
      const r = await call(name, {
        target: "acme/web",
        start: "2026-01-15T09:00",
        end: "2026-01-15T10:00",
        environment: ["production"],
        ...extra,
      });
      expect({ name, isError: r.isError }).toEqual({ name, isError: false });
    }
    const calls = windowOf("/api/0/organizations/acme/events/");
    expect(calls).toHaveLength(4);
    for (const c of calls) {
      expect(c.slice(0, 4)).toEqual([null, "2026-01-15T09:00:00.000Z", "2026-01-15T10:00:00.000Z", []]);
      expect(String(c[4])).toContain("environment:production");
    }
    const rel = await call("issue_events", { issue: "acme/WEB-4Y", start: "-2h" });
    expect(rel.isError).toBe(false);
    const [ev] = windowOf("/api/0/organizations/acme/issues/4158/events/");
    expect(ev?.[0]).toBeNull();
    expect(Date.parse(String(ev?.[2])) - Date.parse(String(ev?.[1]))).toBe(2 * 3_600_000);
  });

  test("release_list takes environment; a bad window is an isError result before any request", async () => {
    expect((await call("release_list", { target: "acme/web", environment: ["production"] })).isError).toBe(
      false,
    );
    expect(
      api.requests.filter((q) => q.path.endsWith("/releases/")).map((q) => q.query.getAll("environment")),
    ).toEqual([["production"]]);
    api.reset();
    const bad = await call("issue_list", { target: "acme/web", period: "24h", start: "-1h" });
    expect(bad.isError).toBe(true);
    expect(bad.doc.error.message).toContain("Use either --period (-t) or --start/--end");
    expect(api.requests).toEqual([]);
  });
});

describe("attribute_list", () => {
  test("read-only and annotated like the other reads; lists typed keys", async () => {
    const list = await s.request("tools/list");
    const tool = (
      (list.result?.tools ?? []) as { name: string; annotations: Record<string, unknown> }[]
    ).find((t) => t.name === "attribute_list");
    expect(tool?.annotations).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    const r = await call("attribute_list", { target: "acme/web", dataset: "logs", query: "retry" });
    expect(r.isError).toBe(false);
    expect(r.doc.data).toEqual([
      { key: "tags[retry_count,number]", name: "retry_count", type: "number", source: "user" },
    ]);
    const missing = await s.request("tools/call", {
      name: "attribute_list",
      arguments: { target: "acme/web" },
    });
    expect(JSON.stringify(missing)).toContain("'dataset' is required");
  });
});
