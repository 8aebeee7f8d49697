/**
 * MCP's stdio transport: newline-delimited JSON-RPC 2.0 on stdin/stdout. Written for tracker rather
 * than taken from the SDK because the SDK's transport drops malformed lines silently, and a client
 * that sends one must get a JSON-RPC error back (and the server must stay up). stdout carries
 * protocol messages only; a closed stdin ends the server.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import type { TextSink } from "../log.ts";
import { jsonText } from "../output.ts";

/** The longest line accepted (a tool call with a long note is far below it). */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/** Reads JSON-RPC messages from a byte stream and writes them to a sink, one per line. */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private closed = false;
  /** Ids of requests not yet answered: a closed stdin waits for their answers before closing. */
  private readonly open = new Set<string | number>();
  private drained?: () => void;

  constructor(
    private readonly input: ReadableStream<Uint8Array>,
    private readonly output: TextSink,
  ) {}

  async start(): Promise<void> {
    void this.pump();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    this.output.write(`${jsonText(message)}\n`);
    if (!("method" in message) && "id" in message && message.id !== null && message.id !== undefined) {
      this.open.delete(message.id);
      if (this.open.size === 0) this.drained?.();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  private async pump(): Promise<void> {
    const decoder = new TextDecoder();
    let pending = "";
    let skipping = false;
    try {
      for await (const chunk of this.input) {
        pending += decoder.decode(chunk, { stream: true });
        for (let nl = pending.indexOf("\n"); nl >= 0; nl = pending.indexOf("\n")) {
          const line = pending.slice(0, nl);
          pending = pending.slice(nl + 1);
          if (skipping) skipping = false;
          else this.handleLine(line);
        }
        if (pending.length > MAX_LINE_BYTES) {
          pending = "";
          skipping = true;
          this.reply(null, INVALID_REQUEST, `message longer than ${MAX_LINE_BYTES} bytes`);
        }
      }
      if (pending.trim() !== "" && !skipping) this.handleLine(pending);
    } catch (err) {
      this.onerror?.(err instanceof Error ? err : new Error(String(err)));
    }
    if (this.open.size > 0) await new Promise<void>((resolve) => (this.drained = resolve));
    await this.close();
  }

  private handleLine(raw: string): void {
    const line = raw.replace(/\r$/, "");
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      this.reply(null, PARSE_ERROR, `Parse error: ${(err as Error).message}`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = (value as { id?: unknown } | null)?.id;
      this.reply(
        typeof id === "string" || typeof id === "number" ? id : null,
        INVALID_REQUEST,
        "Invalid Request",
      );
      return;
    }
    const msg = parsed.data;
    if ("method" in msg && "id" in msg) this.open.add(msg.id);
    this.onmessage?.(msg);
  }

  private reply(id: string | number | null, code: number, message: string): void {
    void this.send({ jsonrpc: "2.0", id, error: { code, message } } as unknown as JSONRPCMessage);
  }
}
