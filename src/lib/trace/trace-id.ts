/** Parsing of the `trace view` argument: a full 32-hex trace id or a prefix from `trace list`. */
import { ValidationError } from "../errors.ts";
import { compactHexId, parseHexId } from "../hex-id.ts";

/** Shortest prefix accepted (the TRACE ID column shows this many characters). */
export const MIN_TRACE_PREFIX = 8;

/** A trace reference: the whole id, or a prefix to look up among recent listings. */
export type TraceRef = { kind: "full"; id: string } | { kind: "prefix"; prefix: string };

/** True when the text looks like a trace id or prefix (used to accept both argument orders). */
export function looksLikeTraceRef(raw: string): boolean {
  const text = raw.trim().replace(/-/g, "");
  return /^[0-9a-fA-F]+$/.test(text) && text.length >= MIN_TRACE_PREFIX && text.length <= 32;
}

/**
 * Parses a trace id: 32 hex characters (dashes of the UUID form and upper case are accepted), or a
 * prefix of 8 to 31 hex characters. Anything else is a ValidationError saying what is expected.
 */
export function parseTraceRef(raw: string): TraceRef {
  const text = raw.trim();
  const full = compactHexId(text);
  if (full !== undefined) return { kind: "full", id: full };
  const lower = text.toLowerCase();
  if (/^[0-9a-f]+$/.test(lower) && lower.length >= MIN_TRACE_PREFIX && lower.length < 32) {
    return { kind: "prefix", prefix: lower };
  }
  const why =
    lower === ""
      ? "it is empty"
      : /^[0-9a-f]+$/.test(lower)
        ? lower.length > 32
          ? `it has ${lower.length} characters`
          : `a prefix needs at least ${MIN_TRACE_PREFIX} characters`
        : "it contains characters other than 0-9 and a-f";
  throw new ValidationError(
    `Invalid trace ID '${text}': ${why}. Expected 32 hexadecimal characters, or the ${MIN_TRACE_PREFIX}-character prefix shown by \`tracker trace list\`.`,
    "trace_id",
  );
}

/** A whole trace ID (`--trace`): 32 hex, any case, dashed UUID form too; a prefix is not enough. */
export function parseTraceId(raw: string): string {
  return parseHexId(raw, "trace", "trace");
}
