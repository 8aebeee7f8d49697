/**
 * How deep a response may nest. Sentry's own data is a few levels deep (the service normalises
 * events to about ten); a hostile or broken server can send 30,000 levels, which costs seconds and
 * gigabytes in views that trim or render the document, or overflows the stack in anything that
 * recurses. Responses deeper than the cap are refused with one clear error, before parsing; the
 * one endpoint whose data is legitimately deep (a trace's span tree) names its own cap.
 */
import { jsonTextDepth } from "../json-deep.ts";

/** The deepest nesting of objects and arrays accepted in a response (levels). */
export const MAX_RESPONSE_DEPTH = 1_000;

/**
 * True when the JSON text nests objects/arrays deeper than `max`: one pass over the text, no
 * recursion and no parsing (brackets inside strings do not count).
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  return jsonTextDepth(text, max) > max;
}
