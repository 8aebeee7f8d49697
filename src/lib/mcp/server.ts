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
import type { ContextOverrides, TrackerContext } from "../../context.ts";
import { CliError } from "../errors.ts";
import { EXIT } from "../exit-codes.ts";
import type { TextSink } from "../log.ts";
import { VERSION } from "../version.ts";
import { type ErrorJson, errorToJson } from "../error-json.ts";
import { LineTransport } from "./transport.ts";
import {
  availableTools,
  type Invocation,
  type ToolArgs,
  ToolArgumentError,
  type ToolSpec,
  TOOLS,
} from "./tools.ts";
import { validateArgs } from "./validate.ts";

/** What `tracker mcp` was started with. */
export interface McpOptions {
  allowWrites: boolean;
  /** A pinned default target (`org/project` or `org/`). */
  org?: string;
  project?: string;
}

/** Conventions shared by every tool, said once instead of in every description. */
export const INSTRUCTIONS = [
  "tracker's commands as tools; results are the CLI's JSON documents.",
  "Issues: short ID (WEB-4Y), numeric ID, org/SHORT-ID, alias-suffix (w-4Y) or an issue URL.",
  "Targets: org/project, org/ (whole org) or project; omitted: the server's pinned target, env, defaults or DSN.",
  'Every tool takes fields (dot paths to keep, e.g. ["shortId","project.slug"]), maxChars (bound the text) and format (json|md; md is compact markdown for reading).',
  "Lists return {data, hasMore, nextCursor?}; pass nextCursor as cursor for the next page.",
  "Failures are results with isError and {error: {class, reason, code, message, hint}}; code is tracker's exit code (10-13 auth, 21-23 input, 30-31 service/network, 40-43 AI analysis).",
].join("\n");

/** Text written into a buffer (a tool run's stdout) and, when `also` is set, passed on. */
function capture(also?: TextSink): TextSink & { text(): string } {
  const parts: string[] = [];
  return {
    write(text) {
      parts.push(text);
      also?.write(text);
    },
    text: () => parts.join(""),
  };
}

/** Runs tool calls one after another: in-process command runs share the runtime's error slot. */
function serialQueue() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(job: () => Promise<T>): Promise<T> => {
    const next = tail.then(job, job);
    tail = next.catch(() => undefined);
    return next;
  };
}

function errorResult(err: ErrorJson): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify(err) }] };
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

/** Output flags of a call (the same machinery as the CLI's --fields, --max-chars and --format). */
function outputFlags(args: ToolArgs): string[] {
  const flags = args.format === "md" ? ["--format", "md"] : ["--json"];
  if (Array.isArray(args.fields) && args.fields.length > 0) flags.push("--fields", args.fields.join(","));
  if (typeof args.maxChars === "number") flags.push("--max-chars", String(args.maxChars));
  return flags;
}

/** Answers `tools/call`: validates, runs the tool's command lines, returns their output or error. */
export async function callTool(
  ctx: TrackerContext,
  opts: McpOptions,
  name: string,
  rawArgs: unknown,
): Promise<CallToolResult> {
  const tool: ToolSpec | undefined = TOOLS.find((t) => t.name === name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  if (tool.writes && !opts.allowWrites) {
    return errorResult({
      error: {
        class: "UsageError",
        code: EXIT.usage,
        message: `${name} changes data on the service and is off.`,
        hint: "Start the server with: tracker mcp --allow-writes",
      },
    });
  }
  const args = validateArgs(tool.inputSchema, rawArgs ?? {}, name);
  let invocations: Invocation[];
  try {
    invocations = tool.run(args);
  } catch (err) {
    if (err instanceof ToolArgumentError) throw new McpError(ErrorCode.InvalidParams, err.message);
    throw err;
  }
  const md = args.format === "md";
  const outputs: string[] = [];
  for (const inv of invocations) {
    const argv = [...inv.cmd, ...outputFlags(args), "--log-level", ctx.logLevel, "--", ...inv.args];
    const run = await runInProcess(ctx, opts, argv);
    if (run.error) return errorResult(run.error);
    outputs.push(run.stdout);
  }
  if (md || outputs.length === 1) {
    return { content: [{ type: "text", text: outputs.join("\n").trimEnd() }] };
  }
  const docs = outputs.map((o) => JSON.parse(o) as unknown);
  return { content: [{ type: "text", text: JSON.stringify(mergeDocuments(docs)) }] };
}

/** One command line run in-process: its stdout, or its failure as data. */
async function runInProcess(
  ctx: TrackerContext,
  opts: McpOptions,
  argv: string[],
): Promise<{ stdout: string; error?: ErrorJson }> {
  if (!ctx.runArgv) throw new CliError("this build cannot run commands in-process", EXIT.unexpected);
  const env = { ...ctx.env };
  if (opts.org) {
    env.TRACKER_ORG = opts.org;
    if (opts.project) env.TRACKER_PROJECT = opts.project;
    else delete env.TRACKER_PROJECT;
  }
  const stdout = capture();
  // Logs and warnings of the run still reach the server's stderr, at the server's level.
  const stderr = capture(ctx.stderr);
  const over: ContextOverrides = {
    env,
    stdout,
    stderr,
    cwd: ctx.cwd,
    isStdoutTTY: false,
    isStderrTTY: false,
    isStdinTTY: false,
    readStdin: async () => "",
  };
  const { exitCode, error } = await ctx.runArgv(argv, over);
  if (exitCode === 0) return { stdout: stdout.text() };
  return { stdout: "", error: errorToJson(error, exitCode, stderr.text()) };
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
    tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
  }));
  server.setRequestHandler(CallToolRequestSchema, (req) =>
    queue(() => callTool(ctx, opts, req.params.name, req.params.arguments)),
  );
  const transport = new LineTransport(Bun.stdin.stream(), ctx.stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  server.onerror = (err) => ctx.log.debug(`mcp: ${err.message}`);
  await server.connect(transport);
  ctx.log.debug(`mcp: serving ${tools.length} tools on stdio`);
  await closed;
}
