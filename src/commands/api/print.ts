/**
 * Printing of `tracker api` answers: the body as the server sent it, or shaped by the global
 * output flags (`--jq`, `--fields`, `--format md`, `--max-chars`) when any is given. Nothing here
 * recurses over the document, so bodies nested 100,000 deep print like any other.
 */
import type { TrackerContext } from "../../context.ts";
import { ValidationError } from "../../lib/errors.ts";
import { DEEP_NESTING } from "../../lib/json-deep.ts";
import { jsonText, writeJson, writeLines } from "../../lib/output.ts";
import { jsonTextDepth } from "../../lib/json-deep.ts";

/** The output-shaping flags given to this run, as the user spells them (empty: print as sent). */
export function shapingFlags(ctx: TrackerContext): string[] {
  const o = ctx.output;
  if (!o) return [];
  const given: string[] = [];
  if (o.jq !== undefined) given.push("--jq");
  if (o.fields !== undefined) given.push("--fields");
  if (o.format === "md") given.push("--format md");
  if (o.maxChars !== undefined) given.push("--max-chars");
  return given;
}

/** Deepest nesting of `[`/`{` in JSON text, counted in one pass outside strings (no parse). */
export function nestingDepth(text: string): number {
  return jsonTextDepth(text);
}

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/**
 * Prints a body unshaped: non-JSON as is, JSON as the server sent it when piped, indented on a
 * terminal (compact when nested deeper than DEEP_NESTING). Raw DEL/C1 characters inside JSON
 * strings are escaped (jsonText) so the terminal sanitiser never turns valid JSON into invalid
 * JSON. Used for error bodies whatever the flags.
 */
export function printRaw(ctx: TrackerContext, text: string): void {
  if (text === "") return;
  const parsed = parseJson(text);
  if (!parsed) {
    writeLines(ctx, text);
    return;
  }
  const depth = nestingDepth(text);
  // Indentation grows with depth: a deep document indented would be quadratic in size.
  const indent = ctx.isStdoutTTY && depth <= DEEP_NESTING;
  if (ctx.isStdoutTTY || /[\u007f-\u009f\u2028\u2029]/.test(text))
    writeLines(ctx, jsonText(parsed.value, indent, depth));
  else writeLines(ctx, text);
}

/**
 * Prints a success body: shaped by the output flags when given (a body that is not JSON is then a
 * ValidationError, as they cannot apply to it), else unshaped (printRaw).
 */
export function printBody(ctx: TrackerContext, text: string, endpoint: string): void {
  const flags = shapingFlags(ctx);
  if (flags.length === 0) {
    printRaw(ctx, text);
    return;
  }
  if (text.trim() === "") return;
  const parsed = parseJson(text);
  if (!parsed) {
    throw new ValidationError(
      `${flags.join(", ")} work on JSON, but ${endpoint} answered with something else; run without ${flags.length > 1 ? "them" : "it"} to see the body.`,
      flags[0]?.slice(2).split(" ")[0],
    );
  }
  writeJson(ctx, parsed.value, { depth: nestingDepth(text) });
}

/** Prints a document tracker assembled (the pages of --paginate), shaped like a body. */
export function printValue(ctx: TrackerContext, value: unknown): void {
  if (shapingFlags(ctx).length > 0) {
    writeJson(ctx, value);
    return;
  }
  const compact = jsonText(value);
  // Indented only when shallow enough: indentation grows with depth.
  const indent = ctx.isStdoutTTY && nestingDepth(compact) <= DEEP_NESTING;
  writeLines(ctx, indent ? jsonText(value, true) : compact);
}

/**
 * The body the error's detail is taken from: a JSON body nested deeper than the detail extractor
 * can walk is replaced by a short note (the body itself is still printed on stdout).
 */
export function detailSource(text: string): string {
  if (!/^\s*[[{]/.test(text)) return text;
  const depth = nestingDepth(text);
  if (depth <= DEEP_NESTING) return text;
  return JSON.stringify({
    detail: `The error response is JSON nested ${depth} levels deep; its detail is not shown.`,
  });
}
