/**
 * A thrown failure as data: what `--json` (or TRACKER_OUTPUT=json) prints on stderr and what the
 * MCP server returns in a failed tool result, so scripts and agents branch on `class`, `reason`
 * and `code` instead of parsing English. Tokens are masked as in text errors.
 */
import { ApiError, CliError } from "./errors.ts";
import { EXIT } from "./exit-codes.ts";
import { redact } from "./redact.ts";

/** The JSON form of one failure (members present when known). */
export interface ErrorJson {
  error: {
    class: string;
    reason?: string;
    code: number;
    message: string;
    hint?: string;
    status?: number;
    detail?: string;
  };
}

/**
 * Describes what a command run ended with: its error when it threw one, else the first line of what
 * it printed on stderr (Stricli's own usage errors carry no error object).
 */
export function errorToJson(
  err: unknown,
  exitCode: number,
  stderrText = "",
  secrets: readonly string[] = [],
): ErrorJson {
  const out = describe(err, exitCode, stderrText);
  const mask = (t: string) => redact(t, secrets, { longRuns: false });
  out.error.message = mask(out.error.message);
  if (out.error.hint) out.error.hint = mask(out.error.hint);
  if (out.error.detail) out.error.detail = mask(out.error.detail);
  return out;
}

function describe(err: unknown, exitCode: number, stderrText: string): ErrorJson {
  if (err instanceof CliError) {
    const e = err as CliError & { reason?: unknown; code?: unknown };
    const reason = typeof e.reason === "string" ? e.reason : typeof e.code === "string" ? e.code : undefined;
    const out: ErrorJson["error"] = { class: err.name, code: err.exitCode, message: err.message };
    if (reason) out.reason = reason;
    if (err instanceof ApiError) {
      out.status = err.status;
      if (err.detail) out.detail = err.detail;
      if (err.hint) out.hint = err.hint;
    } else {
      const rest = err.format().slice(err.message.length).trim();
      if (rest) out.hint = rest;
    }
    return { error: out };
  }
  const lines = stderrText
    .split("\n")
    .map((l) => l.replace(/^Error: /, "").trim())
    .filter(Boolean);
  const message = err instanceof Error ? err.message : (lines[0] ?? `exit code ${exitCode}`);
  const out: ErrorJson["error"] = {
    class: exitCode === EXIT.usage ? "UsageError" : "UnexpectedError",
    code: exitCode,
    message,
  };
  if (lines.length > 1) out.hint = lines.slice(1).join("\n");
  return { error: out };
}
