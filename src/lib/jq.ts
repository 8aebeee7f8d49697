/**
 * `--jq`: a document filtered through real jq (jq-wasm: jq 1.7 compiled to WebAssembly, embedded
 * in the binary, loaded only when --jq is used). Chosen over a pure-JS jq after trying both: the
 * JS ones get `//` wrong or lack `@tsv`/`env`, and report syntax errors as runtime ones; jq-wasm is
 * jq itself (1.3 MB, ~50 ms to load, only on --jq).
 *
 * jq-wasm 1.0.1 is patched (patches/jq-wasm@1.0.1.patch): its stdin read copied the input once
 * per byte and its stdout grew by one byte per write (1 MB in and out: over 120 s; patched: 82 ms),
 * its environment was a fixed fake (`env.HOME` was /home/web_user; now the process environment,
 * less anything named like a secret), and an error after some output was dropped (now thrown with
 * the output so far).
 */
import { toJsonText } from "./json-deep.ts";
import { CliError } from "./errors.ts";
import { EXIT } from "./exit-codes.ts";

/** jq's message with the wasm build's input name shown as jq shows it. */
function jqMessage(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).trim().replaceAll("/dev/stdin", "<stdin>");
}

function isCompileError(text: string): boolean {
  return /compile error|syntax error/i.test(text);
}

function usageError(err: unknown): CliError {
  return new CliError(`Invalid --jq program: ${jqMessage(err)}`, EXIT.usage);
}

/** A valid program that failed on this document (`.foo` of a number): jq's own words, exit 21. */
export class JqRuntimeError extends CliError {
  /** What the program printed before it failed. */
  readonly output: string;
  constructor(message: string, output: string) {
    super(message.startsWith("jq: error") ? message : `jq: error: ${message}`, EXIT.validation);
    this.name = "JqRuntimeError";
    this.output = output;
  }
}

/**
 * Runs jq. Emscripten's main() sets process.exitCode to jq's exit status (5 on errors); that
 * belongs to jq, not to this process (tests and the MCP server run many commands in one process).
 */
async function raw(
  data: string,
  program: string,
  flags: string[],
  onStderr?: (text: string) => void,
): Promise<string> {
  const jq = await import("jq-wasm");
  const saved = process.exitCode;
  process.exitCode = 0;
  try {
    return await jq.raw(data, program, flags);
  } catch (err) {
    // The wasm build throws whenever jq wrote to stderr; `debug` and `stderr` do that and jq
    // still exits 0. Then the output is the result and the stderr text goes to tracker's stderr.
    const output = (err as { output?: unknown }).output;
    if (process.exitCode === 0 && typeof output === "string" && onStderr) {
      onStderr(jqMessage(err));
      return output;
    }
    throw err;
  } finally {
    // Setting undefined does not clear it in Bun: 0 is the same as never set.
    process.exitCode = saved ?? 0;
  }
}

/** Compiles a program against `null`; a syntax error is a usage error with jq's own message. */
export async function checkJq(program: string): Promise<void> {
  try {
    await raw("null", program, ["-c"]);
  } catch (err) {
    // Only compile errors count here; a runtime error on null (".foo[0]") is fine for real input.
    if (isCompileError(jqMessage(err))) throw usageError(err);
  }
}

/**
 * The program's output for a document: strings raw, everything else compact JSON, one per line.
 * A compile error is a usage error (exit 2); a runtime error is a JqRuntimeError carrying the
 * output printed before it. What `debug` and `stderr` print goes to `onStderr` (exit 0, as jq).
 */
export async function runJq(
  doc: unknown,
  program: string,
  onStderr?: (text: string) => void,
): Promise<string> {
  try {
    return await raw(toJsonText(doc), program, ["-r", "-c"], onStderr);
  } catch (err) {
    const text = jqMessage(err);
    if (isCompileError(text)) throw usageError(err);
    const output = (err as { output?: unknown }).output;
    throw new JqRuntimeError(text, typeof output === "string" ? output : "");
  }
}
