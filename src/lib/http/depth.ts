/**
 * How deep a response may nest. Sentry's own data is a few levels deep (the service normalises
 * events to about ten); a hostile or broken server can send 30,000 levels, which costs seconds and
 * gigabytes in views that trim or render the document, or overflows the stack in anything that
 * recurses. Responses deeper than the cap are refused with one clear error, before parsing; the
 * one endpoint whose data is legitimately deep (a trace's span tree) names its own cap.
 */

/** The deepest nesting of objects and arrays accepted in a response (levels). */
export const MAX_RESPONSE_DEPTH = 1_000;

/**
 * True when the JSON text nests objects/arrays deeper than `max`: one pass over the text, no
 * recursion and no parsing (brackets inside strings do not count).
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
