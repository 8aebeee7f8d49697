/**
 * `--jq`: a document filtered through real jq (jq-wasm: jq 1.7 compiled to WebAssembly, embedded
 * in the binary, loaded only when --jq is used). Chosen over a pure-JS jq after trying both: the
 * JS one lacked select, group_by and `//`, which jq users reach for first; jq-wasm is jq itself
 * (1.3 MB, ~25 ms to load, only on --jq). Strings print raw (like jq -r), one per line.
 */
import { toJsonText } from "./json-deep.ts";
import { CliError } from "./errors.ts";
import { EXIT } from "./exit-codes.ts";

function usageError(err: unknown): CliError {
  const text = (err instanceof Error ? err.message : String(err)).trim();
  return new CliError(`Invalid --jq program: ${text}`, EXIT.usage);
}

/**
 * Runs jq. Emscripten's main() sets process.exitCode to jq's exit status (5 on errors); that
 * belongs to jq, not to this process (tests and the MCP server run many commands in one process).
 */
async function raw(data: string, program: string, flags: string[]): Promise<string> {
  const jq = await import("jq-wasm");
  const saved = process.exitCode;
  try {
    return await jq.raw(data, program, flags);
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
    const text = err instanceof Error ? err.message : String(err);
    // Only compile errors count here; a runtime error on null (".foo[0]") is fine for real input.
    if (/compile error|syntax error/i.test(text)) throw usageError(err);
  }
}

/** The program's output for a document: strings raw, everything else compact JSON, one per line. */
export async function runJq(doc: unknown, program: string): Promise<string> {
  try {
    return await raw(toJsonText(doc), program, ["-r", "-c"]);
  } catch (err) {
    throw usageError(err);
  }
}
