/** The building blocks of the MCP tool table: argument schemas and command-line assembly. */
/** JSON Schema of a tool's arguments (the subset we use). */
export interface ArgSchema {
  type: "object";
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  additionalProperties: false;
}

/** One MCP tool and how its arguments become a tracker command line. */
export interface ToolSpec {
  name: string;
  /** A human title (MCP `title`). */
  title: string;
  description: string;
  inputSchema: ArgSchema;
  /** Changes state on the service: listed and callable only with --allow-writes. */
  writes?: boolean;
  /** Changes state with these arguments only (issue_explain with force starts a new AI run). */
  writesWhen?: (args: ToolArgs) => boolean;
  /** Repeating the same call changes nothing more (for write tools; reads always are). */
  idempotent?: boolean;
  /** The command lines that answer a call (usually one; none for tools the server answers itself). */
  run(args: ToolArgs): Invocation[];
}

/** One tracker command line: command words and flags, then positionals (after `--`). */
export interface Invocation {
  cmd: string[];
  args: string[];
}

/** Arguments of a tool call after validation against its schema. */
export type ToolArgs = Record<string, unknown>;

export const str = (description?: string) =>
  description ? { type: "string", description } : { type: "string" };
export const int = (min: number, max: number) => ({ type: "integer", minimum: min, maximum: max });
export const bool = { type: "boolean" };

/** Output arguments every tool accepts (see the instructions; validated, not listed per tool). */
export const OUTPUT_PROPS = {
  fields: { type: "array", items: { type: "string" } },
  maxChars: int(200, 1_000_000),
  format: { enum: ["json", "md"] },
};

export function schema(props: Record<string, Record<string, unknown>>, required: string[] = []): ArgSchema {
  return {
    type: "object",
    properties: { ...props, ...OUTPUT_PROPS },
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/** `--flag value` pairs for the arguments that are set. */
export function opt(args: ToolArgs, pairs: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [key, flag] of Object.entries(pairs)) {
    const v = args[key];
    if (v === undefined || v === null || v === false) continue;
    if (v === true) out.push(flag);
    else out.push(flag, String(v));
  }
  return out;
}

/** A positional argument when set. */
export function pos(value: unknown): string[] {
  return typeof value === "string" && value !== "" ? [value] : [];
}

export function one(cmd: string[], args: string[] = []): Invocation[] {
  return [{ cmd, args }];
}

/** A call that asks for a new AI run instead of the finished one. */
export const forced = (a: ToolArgs) => a.force === true;

export const LIST_FLAGS = { query: "--query", limit: "--limit", cursor: "--cursor" };

/** The window and environment arguments of the list tools (explained once in the instructions). */
export const WINDOW_PROPS = { period: str(), start: str(), end: str(), environment: { type: "array" } };
/** The environment argument alone (release_list). */
export const ENV_PROP = { environment: WINDOW_PROPS.environment };

/**
 * `--period=…`, `--start=…`, `--end=…` and one `--environment=…` per name, for the arguments that
 * are set (with `=`, so a relative `-2h` is never read as a flag).
 */
export function windowArgs(args: ToolArgs): string[] {
  const out: string[] = [];
  for (const key of ["period", "start", "end"] as const) {
    const v = args[key];
    if (typeof v === "string" && v !== "") out.push(`--${key}=${v}`);
  }
  const envs = Array.isArray(args.environment) ? (args.environment as unknown[]) : [];
  for (const e of envs) out.push(`--environment=${String(e)}`);
  return out;
}
