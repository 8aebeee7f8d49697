/** A scripted MCP client: starts `tracker mcp` (source or compiled binary) and talks JSON-RPC lines. */
import { rmSync } from "node:fs";
import type { FakeApi } from "../fake-api/server.ts";
import { cliCommand, tempDir } from "./cli.ts";

/** One JSON-RPC answer. */
export interface RpcAnswer {
  jsonrpc: "2.0";
  id: number | string | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** A running server and the calls a test makes on it. */
export interface McpSession {
  /** Sends a request and waits for the answer with its id. */
  request(method: string, params?: unknown): Promise<RpcAnswer>;
  /** Writes raw text to the server's stdin (malformed input). */
  writeRaw(text: string): void;
  /** Waits for the next answer whose id is null (errors about unreadable input). */
  nextAnonymous(): Promise<RpcAnswer>;
  /** Waits for the answer with this id (to a request written raw). */
  answerFor(id: number | string): Promise<RpcAnswer>;
  /** Every stdout line so far (each must be a JSON-RPC message). */
  readonly lines: string[];
  /** Closes stdin and waits for exit: code and stderr. */
  close(): Promise<{ exitCode: number; stderr: string }>;
}

/** Options of startMcp. */
export interface McpStartOptions {
  api?: FakeApi;
  token?: string;
  env?: Record<string, string | undefined>;
}

/** Starts `tracker mcp <args>` with a fresh config dir (removed on close). */
export function startMcp(args: readonly string[] = [], opts: McpStartOptions = {}): McpSession {
  const configDir = tempDir("tracker-mcp-cfg-");
  const cwd = tempDir("tracker-mcp-cwd-");
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith("TRACKER_")) env[k] = v;
  }
  env.TRACKER_CONFIG_DIR = configDir;
  if (opts.api) env.TRACKER_URL = opts.api.url;
  if (opts.token) env.TRACKER_AUTH_TOKEN = opts.token;
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  const proc = Bun.spawn([...cliCommand(), "mcp", ...args], {
    cwd,
    env,
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  const lines: string[] = [];
  const waiters = new Map<number | string | null, ((a: RpcAnswer) => void)[]>();
  const early = new Map<number | string | null, RpcAnswer[]>();
  const deliver = (a: RpcAnswer) => {
    const w = waiters.get(a.id)?.shift();
    if (w) w(a);
    else early.set(a.id, [...(early.get(a.id) ?? []), a]);
  };
  const wait = (id: number | string | null): Promise<RpcAnswer> => {
    const queued = early.get(id)?.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve) => waiters.set(id, [...(waiters.get(id) ?? []), resolve]));
  };
  const reading = (async () => {
    const decoder = new TextDecoder();
    let pending = "";
    for await (const chunk of proc.stdout) {
      pending += decoder.decode(chunk, { stream: true });
      for (let nl = pending.indexOf("\n"); nl >= 0; nl = pending.indexOf("\n")) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        lines.push(line);
        deliver(JSON.parse(line) as RpcAnswer);
      }
    }
  })();
  const stderrText = new Response(proc.stderr).text();
  let nextId = 1;
  const killer = setTimeout(() => proc.kill(), 20_000);
  return {
    lines,
    request(method, params) {
      const id = nextId++;
      proc.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) })}\n`);
      proc.stdin.flush();
      return wait(id);
    },
    writeRaw(text) {
      proc.stdin.write(text);
      proc.stdin.flush();
    },
    nextAnonymous: () => wait(null),
    answerFor: (id) => wait(id),
    async close() {
      proc.stdin.end();
      const exitCode = await proc.exited;
      clearTimeout(killer);
      await reading;
      const stderr = await stderrText;
      rmSync(configDir, { recursive: true, force: true });
      rmSync(cwd, { recursive: true, force: true });
      return { exitCode, stderr };
    },
  };
}

/** The initialize request of a client speaking `version`. */
export function initializeParams(version = "2025-06-18") {
  return {
    protocolVersion: version,
    capabilities: {},
    clientInfo: { name: "test-client", version: "1.0.0" },
  };
}
