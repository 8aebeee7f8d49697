/**
 * Running one tool's command lines in-process for the MCP server: captured output, the server's
 * pinned target, a default size bound, and cancellation (`notifications/cancelled` aborts the
 * run's requests and waits, so the next call starts at once).
 */
import type { ContextOverrides, TrackerContext } from "../../context.ts";
import { type ErrorJson, errorToJson } from "../error-json.ts";
import { CliError } from "../errors.ts";
import { EXIT } from "../exit-codes.ts";
import type { TextSink } from "../log.ts";
import type { ToolArgs } from "./tools.ts";

/** What `tracker mcp` was started with. */
export interface McpOptions {
  allowWrites: boolean;
  /** A pinned default target (`org/project` or `org/`). */
  org?: string;
  project?: string;
}

/** The size bound of a tool result when the call names none (characters). */
export const DEFAULT_MAX_CHARS = 25_000;

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
export function serialQueue() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(job: () => Promise<T>): Promise<T> => {
    const next = tail.then(job, job);
    tail = next.catch(() => undefined);
    return next;
  };
}

/**
 * Output flags of a call (the CLI's --fields, --max-chars and --format): every result is bounded,
 * by the call's maxChars or else DEFAULT_MAX_CHARS, trimmed as --max-chars trims.
 */
export function outputFlags(args: ToolArgs): string[] {
  const flags = args.format === "md" ? ["--format", "md"] : ["--json"];
  if (Array.isArray(args.fields) && args.fields.length > 0) flags.push("--fields", args.fields.join(","));
  const max = typeof args.maxChars === "number" ? args.maxChars : DEFAULT_MAX_CHARS;
  flags.push("--max-chars", String(max));
  return flags;
}

/** The outcome of one command line: its stdout (also when it failed) and its failure as data. */
export interface ToolRun {
  stdout: string;
  error?: ErrorJson;
}

/** A fetch and a sleep that stop when the call is cancelled. */
function cancellable(ctx: TrackerContext, signal: AbortSignal | undefined): Partial<ContextOverrides> {
  if (!signal) return {};
  const cancelled = () => new CliError("The tool call was cancelled.", EXIT.cancelled);
  return {
    fetch: ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      if (signal.aborted) return Promise.reject(cancelled());
      const signals = init?.signal ? [init.signal, signal] : [signal];
      return ctx.fetch(input, { ...init, signal: AbortSignal.any(signals) });
    }) as typeof fetch,
    sleep: (ms: number) =>
      new Promise<void>((resolve, reject) => {
        if (signal.aborted) return reject(cancelled());
        const timer = setTimeout(resolve, ms);
        signal.addEventListener("abort", () => {
          clearTimeout(timer);
          reject(cancelled());
        });
      }),
  };
}

/** One command line run in-process: its stdout, and its failure as data. */
export async function runInProcess(
  ctx: TrackerContext,
  opts: McpOptions,
  argv: string[],
  signal?: AbortSignal,
): Promise<ToolRun> {
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
    ...cancellable(ctx, signal),
  };
  const { exitCode, error } = await ctx.runArgv(argv, over);
  if (exitCode === 0) return { stdout: stdout.text() };
  return { stdout: stdout.text(), error: errorToJson(error, exitCode, stderr.text()) };
}
