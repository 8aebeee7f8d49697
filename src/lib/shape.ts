/**
 * Shaping a JSON document for scripts and agents: `--fields` keeps only the named dot paths (list
 * wrappers' paths apply to each item of `data`, arrays map element-wise), and `--max-chars` trims it
 * deterministically to a size (trim/fit.ts), saying what it left out in `"truncated"`.
 */
import { fitJson } from "./trim/fit.ts";
import { ValidationError } from "./errors.ts";

type Json = unknown;

function isObject(v: Json): v is Record<string, Json> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Parses `--fields a,b.c` into paths. */
export function parseFields(raw: string): string[][] {
  // A name with characters beyond a dot path's (an aggregate such as `count()` or
  // `p95(span.duration)`) is one key, dots included.
  const paths = raw
    .split(",")
    .map((f) => f.trim())
    .filter(Boolean)
    .map((f) => (/^[A-Za-z0-9_$.-]+$/.test(f) ? f.split(".") : [f]));
  if (paths.length === 0 || paths.some((p) => p.some((seg) => seg === "" || /[\s\x00-\x1f]/.test(seg)))) {
    throw new ValidationError(
      `--fields must be comma-separated names or dot paths (e.g. shortId,project.slug), got '${raw}'.`,
      "fields",
    );
  }
  return paths;
}

/** A dotted path that is itself a key of the object (`span.op`, `p95(span.duration)`), if so. */
function literalKey(value: Record<string, Json>, path: readonly string[]): string | undefined {
  const joined = path.join(".");
  return path.length > 1 && joined in value ? joined : undefined;
}

function pick(value: Json, path: readonly string[]): Json {
  if (path.length === 0) return value;
  if (Array.isArray(value)) return value.map((v) => pick(v, path));
  if (!isObject(value)) return undefined;
  const literal = literalKey(value, path);
  if (literal !== undefined) return value[literal];
  const [head, ...rest] = path as [string, ...string[]];
  return head in value ? pick(value[head], rest) : undefined;
}

function has(value: Json, path: readonly string[]): boolean {
  if (path.length === 0) return true;
  if (Array.isArray(value)) return value.length === 0 || value.some((v) => has(v, path));
  if (!isObject(value)) return false;
  if (literalKey(value, path) !== undefined) return true;
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
    const literal = literalKey(item, p);
    if (literal !== undefined) out[literal] = item[literal];
    else if (p.length > 1 && Array.isArray(item[p[0] as string])) {
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

/**
 * Trims a JSON document so that its compact text (`toJsonText(result)`, what a pipe gets) is at
 * most `maxChars` characters, `"truncated"` report included, in O(n log n) time and without
 * recursion. The input is not changed; the same input gives the same output.
 *
 * What goes, in this order and only while still too long: the last items of the largest arrays
 * (keeping one item per array; a list's `data` loses rows from the end), then whole optional
 * fields (object/array values of non-identity keys, largest first: an event's `entries`,
 * `contexts`, `_meta`…), then the longest free text is cut to a common length ending in "…", then
 * array items down to none, then any other field. Identifiers, URLs and timestamps (by key:
 * `id`, `*Id`, `*_id`, `slug`, `hash`, `version`, `url`, `permalink`, `timestamp`, `dateCreated`,
 * `firstSeen`, `start`…; or by value: `http(s)://…`, ISO-8601) are kept whole or dropped with
 * what holds them, never cut. The top-level `data`, `hasMore`, `nextCursor`, `total`, `org` and
 * identity fields go last of all.
 *
 * An object document gets a top-level `"truncated"` object: `"<dot path>": n` for n array items
 * removed at that path (paths leave out indices; `"(root)"` is the document itself),
 * `"<dot path>": "field"` (or `"field ×n"`) for a field removed from one (or n) objects at that
 * path, `"(strings shortened)": n`, and `"(other paths)": n` / `"(deep paths)": n` for removals
 * past the report's own budget (a third of `maxChars`) or under paths over 100 characters. A
 * bare array or scalar is only fitted (a bare string is always cut as text).
 *
 * Indented text (a terminal's, about 1.3–2× longer) is not bounded by this: use `fitJson(doc,
 * maxChars, 2)` from trim/fit.ts for that.
 */
export function truncateJson(doc: Json, maxChars: number): Json {
  return fitJson(doc, maxChars, 0);
}
