/**
 * `tracker mcp`: spawn, initialize, tools/list, one issue_list call, then stdin closes and the
 * server exits. The whole session is the timed run, so `initialize` is answered well within it.
 */
import type { BenchCase } from "./types.ts";

const session = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/list" },
  {
    jsonrpc: "2.0",
    id: 3,
    method: "tools/call",
    params: { name: "issue_list", arguments: { target: "acme/web", limit: 25 } },
  },
]
  .map((m) => JSON.stringify(m))
  .join("\n");

/** Benchmarked MCP session. */
export const cases: BenchCase[] = [
  {
    name: "mcp: initialize, tools/list, issue_list",
    args: ["mcp"],
    needsApi: true,
    stdin: `${session}\n`,
    target: { p50Ms: 100, rssMiB: 60 },
  },
];
