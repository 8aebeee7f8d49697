/**
 * Shaping a JSON document for scripts and agents: `--fields` keeps only the named dot paths (list
 * wrappers' paths apply to each item of `data`, arrays map element-wise), and `--max-chars` trims it
 * deterministically to a size, dropping the ends of the longest arrays first, then shortening the
 * longest strings, and saying what it left out in `"truncated"`.
 */
import { toJsonText } from "./json-deep.ts";
import { ValidationError } from "./errors.ts";

type Json = unknown;

function isObject(v: Json): v is Record<string, Json> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Parses `--fields a,b.c` into paths. */
export function parseFields(raw: string): string[][] {
  const paths = raw
    .split(",")
    .map((f) => f.trim())
    .filter(Boolean)
    .map((f) => f.split("."));
  if (paths.length === 0 || paths.some((p) => p.some((seg) => !/^[A-Za-z0-9_$-]+$/.test(seg)))) {
    throw new ValidationError(
      `--fields must be comma-separated names or dot paths (e.g. shortId,project.slug), got '${raw}'.`,
      "fields",
    );
  }
  return paths;
}

function pick(value: Json, path: readonly string[]): Json {
  if (path.length === 0) return value;
  if (Array.isArray(value)) return value.map((v) => pick(v, path));
  if (!isObject(value)) return undefined;
  const [head, ...rest] = path as [string, ...string[]];
  return head in value ? pick(value[head], rest) : undefined;
}

function has(value: Json, path: readonly string[]): boolean {
  if (path.length === 0) return true;
  if (Array.isArray(value)) return value.length === 0 || value.some((v) => has(v, path));
  if (!isObject(value)) return false;
  const [head, ...rest] = path as [string, ...string[]];
  return head in value && has(value[head], rest);
}

function assign(target: Record<string, Json>, path: readonly string[], value: Json): void {
  const [head, ...rest] = path as [string, ...string[]];
  if (rest.length === 0) {
    target[head] = value;
    return;
  }
  const inner = (isObject(target[head]) ? target[head] : {}) as Record<string, Json>;
  target[head] = inner;
  if (Array.isArray(value)) {
    // An array under the path: keep it as an array of picked items.
    target[head] = value;
    return;
  }
  assign(inner, rest, value);
}

function keysOf(value: Json, prefix = "", depth = 0): string[] {
  if (Array.isArray(value)) return value.length > 0 ? keysOf(value[0], prefix, depth) : [];
  if (!isObject(value) || depth > 1) return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const name = prefix ? `${prefix}.${k}` : k;
    return [name, ...(isObject(v) ? keysOf(v, name, depth + 1) : [])];
  });
}

function selectOne(item: Json, paths: readonly string[][]): Json {
  if (!isObject(item)) return item;
  const out: Record<string, Json> = {};
  for (const p of paths) {
    if (p.length > 1 && Array.isArray(item[p[0] as string])) {
      const arr = item[p[0] as string] as Json[];
      const sub = arr.map((el) => selectOne(el, [p.slice(1)]));
      out[p[0] as string] = mergeArrays(out[p[0] as string], sub);
    } else if (has(item, p)) assign(out, p, pick(item, p));
  }
  return out;
}

function mergeArrays(prev: Json, next: Json[]): Json[] {
  if (!Array.isArray(prev)) return next;
  return next.map((n, i) => (isObject(prev[i]) && isObject(n) ? { ...prev[i], ...n } : n));
}

/**
 * Keeps only the named paths of a document. A list wrapper (`{data: [...], …}`) keeps its other
 * keys and applies the paths to each item; a bare array applies them to each element. A path no
 * item has is a usage error naming the valid ones.
 */
export function selectFields(doc: Json, paths: readonly string[][]): Json {
  const items =
    isObject(doc) && Array.isArray(doc.data) ? (doc.data as Json[]) : Array.isArray(doc) ? doc : [doc];
  const unknown = paths.filter((p) => items.length > 0 && !items.some((it) => has(it, p)));
  if (unknown.length > 0) {
    const valid = [...new Set(items.flatMap((it) => keysOf(it)))].sort();
    throw new ValidationError(
      `Unknown field${unknown.length > 1 ? "s" : ""} ${unknown.map((p) => p.join(".")).join(", ")}. Valid fields: ${valid.join(", ")}.`,
      "fields",
    );
  }
  if (isObject(doc) && Array.isArray(doc.data))
    return { ...doc, data: items.map((it) => selectOne(it, paths)) };
  if (Array.isArray(doc)) return items.map((it) => selectOne(it, paths));
  return selectOne(doc, paths);
}

function size(doc: Json): number {
  return toJsonText(doc).length;
}

function longestArray(value: Json, path: string[] = []): { path: string[]; arr: Json[] } | undefined {
  let best: { path: string[]; arr: Json[] } | undefined;
  const visit = (v: Json, p: string[]) => {
    if (Array.isArray(v)) {
      if (v.length > 0 && (!best || size(v) > size(best.arr))) best = { path: p, arr: v };
      for (const [i, el] of v.entries()) visit(el, [...p, String(i)]);
    } else if (isObject(v)) for (const [k, x] of Object.entries(v)) visit(x, [...p, k]);
  };
  visit(value, path);
  return best;
}

function longestString(
  value: Json,
): { holder: Record<string, Json> | Json[]; key: string | number; len: number } | undefined {
  let best: { holder: Record<string, Json> | Json[]; key: string | number; len: number } | undefined;
  const visit = (v: Json) => {
    if (Array.isArray(v)) {
      v.forEach((el, i) => {
        if (typeof el === "string" && (!best || el.length > best.len))
          best = { holder: v, key: i, len: el.length };
        else visit(el);
      });
    } else if (isObject(v)) {
      for (const [k, el] of Object.entries(v)) {
        if (typeof el === "string" && (!best || el.length > best.len))
          best = { holder: v, key: k, len: el.length };
        else visit(el);
      }
    }
  };
  visit(value);
  return best;
}

/**
 * Trims a JSON document until it serialises to at most `maxChars` characters. Removed array
 * elements are counted per path in `truncated` (object documents), shortened strings end in `…`.
 */
export function truncateJson(doc: Json, maxChars: number): Json {
  if (size(doc) <= maxChars) return doc;
  const copy = structuredClone(doc) as Json;
  const dropped: Record<string, number> = {};
  const budget = () => maxChars - (isObject(copy) ? 40 + size(dropped) : 0);
  for (let guard = 0; size(copy) > budget() && guard < 100_000; guard++) {
    const a = longestArray(copy);
    if (a && a.arr.length > 1) {
      a.arr.pop();
      const key = a.path.filter((s) => !/^\d+$/.test(s)).join(".") || "(root)";
      dropped[key] = (dropped[key] ?? 0) + 1;
      continue;
    }
    const s = longestString(copy);
    if (!s || s.len <= 20) break;
    const text = (s.holder as Record<string | number, Json>)[s.key] as string;
    (s.holder as Record<string | number, Json>)[s.key] =
      `${text.slice(0, Math.max(10, Math.floor(text.length / 2)))}…`;
    dropped["(strings shortened)"] = (dropped["(strings shortened)"] ?? 0) + 1;
  }
  return isObject(copy) ? { ...copy, truncated: dropped } : copy;
}
