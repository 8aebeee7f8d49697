/**
 * `tracker mcp`: a Model Context Protocol server on stdio whose tools are tracker's own commands,
 * run in-process with their JSON output captured. Loaded only by that command, so the SDK costs
 * nothing elsewhere.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import type { TrackerContext } from "../../context.ts";
import type { ErrorJson } from "../error-json.ts";
import { EXIT } from "../exit-codes.ts";
import { VERSION } from "../version.ts";
import { type McpOptions, outputFlags, runInProcess, serialQueue, type ToolRun } from "./run.ts";
import { LineTransport } from "./transport.ts";
import {
  annotationsOf,
  availableTools,
  listedSchema,
  type Invocation,
  type ToolArgs,
  ToolArgumentError,
  type ToolSpec,
  TOOLS,
} from "./tools.ts";
import { validateArgs } from "./validate.ts";

/** Conventions shared by every tool, said once instead of in every description. */
export const INSTRUCTIONS = [
  "tracker's commands as tools; results are the CLI's JSON documents.",
  "Issues: short ID (WEB-4Y), numeric ID, org/SHORT-ID, alias-suffix (w-4Y) or an issue URL.",
  "Targets: org/project, org/ (whole org) or project; omitted: the server's pinned target, env, defaults or DSN.",
  'Every tool also takes fields (array of dot paths to keep, e.g. ["shortId","project.slug"]), maxChars (integer 200-1000000; default 25000) and format ("json"|"md"; md is compact markdown for reading).',
  "Lists return {data, hasMore, nextCursor?}; pass nextCursor as cursor for the next page.",
  "query is Sentry search syntax (is:unresolved level:error; logs: severity:error); the query tool's select names fields and aggregates (transaction, count(), p95(span.duration)) and interval (1h) asks for time series; attribute_list's query matches names containing it.",
  "List tools take period (24h, 30m, or a window 2026-11-20T14:00..2026-11-20T15:30, >=2026-11-20; UTC) or start/end (ISO 8601 or -2h), and environment (array of names); limit is 1-1000 (query and status: 1-100). attribute_list names the fields a query can use.",
  "Failures are results with isError and {error: {class, reason, code, message, hint}}; code is tracker's exit code (10-13 auth, 21-23 input, 30-31 service/network, 40-43 AI analysis).",
].join("\n");

function errorResult(err: ErrorJson): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify(err) }] };
}

/** Arguments a tool cannot take: an isError result the model can read and correct (MCP 2025-11-25). */
function argumentError(message: string): CallToolResult {
  return errorResult({ error: { class: "ValidationError", code: EXIT.validation, message } });
}

/** Merges the `{changed, failed, dryRun}` documents of several change commands into one. */
function mergeDocuments(docs: unknown[]): unknown {
  if (docs.length === 1) return docs[0];
  const merged = { changed: [] as unknown[], failed: [] as unknown[], dryRun: false };
  for (const d of docs as { changed?: unknown[]; failed?: unknown[]; dryRun?: boolean }[]) {
    merged.changed.push(...(d.changed ?? []));
    merged.failed.push(...(d.failed ?? []));
    merged.dryRun ||= d.dryRun === true;
  }
  return merged;
}

function parseDocument(text: string): unknown {
  try {
    return text.trim() === "" ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

/** Why a call needs --allow-writes, or undefined when it may run. */
function writeRefusal(tool: ToolSpec, args: ToolArgs, opts: McpOptions): CallToolResult | undefined {
  if (opts.allowWrites || !(tool.writes || tool.writesWhen?.(args))) return undefined;
  const what = tool.writes
    ? `${tool.name} changes data on the service`
    : `${tool.name} with force starts a new AI run`;
  return errorResult({
    error: {
      class: "UsageError",
      code: EXIT.usage,
      message: `${what} and is off.`,
      hint: "Start the server with: tracker mcp --allow-writes",
    },
  });
}

/** Answers `tools/call`: validates, runs the tool's command lines, returns their output or error. */
export async function callTool(
  ctx: TrackerContext,
  opts: McpOptions,
  name: string,
  rawArgs: unknown,
  signal?: AbortSignal,
): Promise<CallToolResult> {
  const tool: ToolSpec | undefined = TOOLS.find((t) => t.name === name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  let args: ToolArgs;
  let invocations: Invocation[];
  try {
    args = validateArgs(tool.inputSchema, rawArgs ?? {}, name);
    const refused = writeRefusal(tool, args, opts);
    if (refused) return refused;
    invocations = await planInvocations(ctx, opts, tool, args, signal);
  } catch (err) {
    if (err instanceof ToolArgumentError) return argumentError(err.message);
    throw err;
  }
  const md = args.format === "md";
  const outputs: string[] = [];
  for (const inv of invocations) {
    const argv = [...inv.cmd, ...outputFlags(args), "--log-level", ctx.logLevel, "--", ...inv.args];
    const run = await runInProcess(ctx, opts, argv, signal);
    if (run.error) return partialFailure(outputs, run, md);
    outputs.push(run.stdout);
  }
  if (md || outputs.length === 1) {
    return { content: [{ type: "text", text: outputs.join("\n").trimEnd() }] };
  }
  const docs = outputs.map((o) => JSON.parse(o) as unknown);
  return { content: [{ type: "text", text: JSON.stringify(combine(tool, docs)) }] };
}

/**
 * A failed step after others succeeded (issue_update: the status changed, the assignment failed)
 * still reports what changed: the error, with the documents of the steps that ran ("done").
 */
function partialFailure(outputs: string[], run: ToolRun, md: boolean): CallToolResult {
  const error = run.error as ErrorJson;
  const done = [...outputs, run.stdout].map(parseDocument).filter((d) => d !== undefined);
  if (done.length === 0 || md) return errorResult(error);
  return errorResult({ ...error, done: mergeDocuments(done) } as ErrorJson);
}

/** Several documents of one call as one: change reports merged, lists concatenated. */
function combine(tool: ToolSpec, docs: unknown[]): unknown {
  if (tool.name !== "project_list") return mergeDocuments(docs);
  return docs.flatMap((d) => (Array.isArray(d) ? d : []));
}

/**
 * The command lines of a call. `project_list` without an organization (and none pinned) lists the
 * projects of every organization: the organizations are listed first.
 */
async function planInvocations(
  ctx: TrackerContext,
  opts: McpOptions,
  tool: ToolSpec,
  args: ToolArgs,
  signal?: AbortSignal,
): Promise<Invocation[]> {
  if (tool.name !== "project_list" || args.org !== undefined || opts.org) return tool.run(args);
  const orgs = await runInProcess(ctx, opts, ["org", "list", "--json", "--log-level", ctx.logLevel], signal);
  const list = orgs.error ? undefined : parseDocument(orgs.stdout);
  if (!Array.isArray(list)) return tool.run(args);
  const slugs = list.map((o) => (o as { slug?: unknown }).slug).filter((s) => typeof s === "string");
  return slugs.length > 0
    ? slugs.map((slug) => ({ cmd: ["project", "list"], args: [slug] }))
    : tool.run(args);
}

/** Serves MCP on stdin/stdout until stdin closes. */
export async function serveMcp(ctx: TrackerContext, opts: McpOptions): Promise<void> {
  const tools = availableTools(opts.allowWrites);
  const server = new Server(
    { name: "tracker", version: VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  const queue = serialQueue();
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: listedSchema(t.inputSchema),
      annotations: annotationsOf(t),
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, (req, extra) =>
    queue(() =>
      extra.signal.aborted
        ? Promise.resolve(argumentError("The tool call was cancelled."))
        : callTool(ctx, opts, req.params.name, req.params.arguments, extra.signal),
    ),
  );
  const transport = new LineTransport(Bun.stdin.stream(), ctx.stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  server.onerror = (err) => ctx.log.debug(`mcp: ${err.message}`);
  await server.connect(transport);
  // Started by hand on a terminal, say what this is (stderr: stdout carries the protocol).
  if (ctx.isStdinTTY)
    ctx.log.info("tracker mcp speaks the Model Context Protocol on stdio (Ctrl-D ends it).");
  ctx.log.debug(`mcp: serving ${tools.length} tools on stdio`);
  await closed;
}
