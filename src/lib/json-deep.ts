/**
 * JSON text for documents too deep for JSON.stringify (it recurses, and a trace of 20,000 nested
 * spans overflows the stack). Same output as JSON.stringify(value) / JSON.stringify(value, null,
 * 2) for plain data (objects, arrays, strings, finite numbers, booleans, null; undefined members
 * are left out), written with an explicit stack.
 */

type Frame =
  | { kind: "array"; items: readonly unknown[]; next: number; depth: number }
  | { kind: "object"; entries: [string, unknown][]; next: number; depth: number };

function scalar(value: unknown): string | undefined {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? String(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      return value.toString();
    case "object":
      return undefined;
    default:
      return undefined;
  }
}

/** JSON text of `value`, indented by `indent` spaces per level when given, without recursion. */
export function stringifyDeep(value: unknown, indent = 0): string {
  const parts: string[] = [];
  const stack: Frame[] = [];
  const newline = (depth: number) => (indent > 0 ? `\n${" ".repeat(indent * depth)}` : "");
  const colon = indent > 0 ? ": " : ":";

  /** Writes a value: scalars at once, containers by pushing a frame (closed when it runs out). */
  const open = (v: unknown, depth: number): void => {
    const text = scalar(v);
    if (text !== undefined) {
      parts.push(text);
      return;
    }
    if (Array.isArray(v)) {
      parts.push("[");
      stack.push({ kind: "array", items: v, next: 0, depth });
      return;
    }
    const entries = Object.entries(v as object).filter(
      ([, x]) => x !== undefined && typeof x !== "function" && typeof x !== "symbol",
    );
    parts.push("{");
    stack.push({ kind: "object", entries, next: 0, depth });
  };

  open(value, 0);
  while (stack.length > 0) {
    const f = stack[stack.length - 1] as Frame;
    const size = f.kind === "array" ? f.items.length : f.entries.length;
    if (f.next >= size) {
      stack.pop();
      parts.push(`${size > 0 ? newline(f.depth) : ""}${f.kind === "array" ? "]" : "}"}`);
      continue;
    }
    const i = f.next++;
    if (i > 0) parts.push(",");
    parts.push(newline(f.depth + 1));
    if (f.kind === "array") {
      const item = f.items[i];
      open(item === undefined || typeof item === "function" ? null : item, f.depth + 1);
    } else {
      const [key, item] = f.entries[i] as [string, unknown];
      parts.push(JSON.stringify(key), colon);
      open(item, f.depth + 1);
    }
  }
  return parts.join("");
}

/**
 * Nesting beyond which the iterative writer is used at once: JSON.stringify copes with a few
 * thousand levels, and failing at twenty thousand costs it more than a second.
 */
export const DEEP_NESTING = 1_000;

/**
 * JSON.stringify, falling back to the iterative writer when the document is too deep for it;
 * `depth` (the document's nesting, when the caller knows it) skips the doomed first attempt.
 */
export function toJsonText(value: unknown, indent = 0, depth = 0): string {
  if (depth > DEEP_NESTING) return stringifyDeep(value, indent);
  try {
    return indent > 0 ? JSON.stringify(value, null, indent) : JSON.stringify(value);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    return stringifyDeep(value, indent);
  }
}

/**
 * How deeply the arrays and objects of JSON `text` nest, in one pass over the text (no parse, no
 * recursion; brackets inside strings do not count). Stops as soon as the depth passes `cap`.
 */
export function jsonTextDepth(text: string, cap = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest) deepest = depth;
      if (deepest > cap) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}
