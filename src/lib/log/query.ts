/** Search strings of the log commands (Sentry's search syntax, API.md 17.1). */
import { parseTraceId } from "../trace/trace-id.ts";

/** A full trace id for `--trace` (a prefix cannot be searched). */
export function parseTraceFilter(raw: string): string {
  return parseTraceId(raw);
}

/**
 * Joins search terms with AND (a space). A user query with a top-level OR is parenthesised, so
 * the filters tracker adds apply to all of it.
 */
export function joinQuery(...terms: (string | undefined)[]): string | undefined {
  const parts = terms
    .map((t) => t?.trim() ?? "")
    .filter((t) => t !== "")
    .map((t) => (/\bOR\b/.test(t) && terms.filter((x) => x?.trim()).length > 1 ? `(${t})` : t));
  return parts.length > 0 ? parts.join(" ") : undefined;
}
