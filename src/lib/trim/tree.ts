/**
 * The document as a flat tree for the JSON trimmer: node kinds, the text size of a JSON value
 * (counting output.ts's extra escapes), `buildTree` (iterative, as documents can nest 20,000
 * levels), `measure` (each node's size once, bottom up) and the path and member helpers.
 */

const SCALAR = 0;
export const STRING = 1;
export const ARRAY = 2;
export const OBJECT = 3;

/** Report paths longer than this are counted under {@link DEEP_PATH}. */
const MAX_PATH = 100;
const DEEP_PATH = "(deep paths)";

/** What output.ts escapes beyond JSON.stringify (DEL, C1 controls, line separators): 6 chars each. */
const EXTRA_ESCAPED = /[\u007f-\u009f\u2028\u2029]/;
const EXTRA_ESCAPED_ALL = /[\u007f-\u009f\u2028\u2029]/g;

/** Anything JSON.stringify or output.ts writes as more than one character. */
const ESCAPED = /["\\\u0000-\u001f\u007f-\u009f\u2028\u2029\ud800-\udfff]/;

/** Length of a string's JSON text, counting output.ts's extra escapes. */
export function stringSize(s: string): number {
  if (!ESCAPED.test(s)) return s.length + 2;
  const base = JSON.stringify(s).length;
  return EXTRA_ESCAPED.test(s) ? base + 5 * (s.match(EXTRA_ESCAPED_ALL)?.length ?? 0) : base;
}

function scalarSize(v: unknown): number {
  if (typeof v === "string") return stringSize(v);
  if (typeof v === "number") return Number.isFinite(v) ? String(v).length : 4;
  if (typeof v === "boolean") return v ? 4 : 5;
  if (typeof v === "bigint") return v.toString().length;
  return 4;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The value JSON.stringify would write (toJSON applied), or undefined when it leaves it out. */
export function plain(v: unknown): unknown {
  if (typeof v === "function" || typeof v === "symbol") return undefined;
  if (isRecord(v) && typeof v.toJSON === "function") return (v.toJSON as () => unknown)();
  return v;
}

/** The document as nodes in document order (preorder), with each value's original text size. */
export interface Tree {
  n: number;
  kind: number[];
  value: unknown[];
  key: (string | undefined)[];
  /** Nearest object key above a node (array items inherit their array's). */
  textKey: (string | undefined)[];
  /** Dot path without indices, as the report names it. */
  path: string[];
  parent: number[];
  /** Last node of the subtree. */
  last: number[];
  depth: number[];
  size: number[];
  /** Text before the value inside its container: newline and indent, key and colon. */
  prefix: number[];
  members: number[][];
}

/** Members of every scalar (never added to: only containers are parents). */
const NO_MEMBERS: number[] = [];

interface Pending {
  value: unknown;
  parent: number;
  key: string | undefined;
  textKey: string | undefined;
  path: string;
}

function childPath(parent: string, key: string): string {
  if (parent === DEEP_PATH) return DEEP_PATH;
  const p = parent === "" ? key : `${parent}.${key}`;
  return p.length > MAX_PATH ? DEEP_PATH : p;
}

function pushChildren(stack: Pending[], v: unknown, i: number, at: Pending): void {
  if (Array.isArray(v)) {
    for (let j = v.length - 1; j >= 0; j--) {
      const item = plain(v[j]);
      const value = item === undefined ? null : item;
      stack.push({ value, parent: i, key: undefined, textKey: at.textKey, path: at.path });
    }
  } else if (isRecord(v)) {
    const entries = Object.entries(v);
    for (let j = entries.length - 1; j >= 0; j--) {
      const [k, raw] = entries[j] as [string, unknown];
      const value = plain(raw);
      if (value !== undefined)
        stack.push({ value, parent: i, key: k, textKey: k, path: childPath(at.path, k) });
    }
  }
}

function kindOf(v: unknown): number {
  if (typeof v === "string") return STRING;
  if (Array.isArray(v)) return ARRAY;
  return isRecord(v) ? OBJECT : SCALAR;
}

export function buildTree(doc: unknown, indent: number): Tree {
  const t: Tree = {
    n: 0,
    ...{ kind: [], value: [], key: [], textKey: [], path: [], parent: [], last: [], depth: [] },
    ...{ size: [], prefix: [], members: [] },
  };
  const stack: Pending[] = [{ value: doc, parent: -1, key: undefined, textKey: undefined, path: "" }];
  while (stack.length > 0) {
    const p = stack.pop() as Pending;
    const i = t.n++;
    const kind = kindOf(p.value);
    t.kind.push(kind);
    t.value.push(kind <= STRING ? p.value : undefined);
    t.key.push(p.key);
    t.textKey.push(p.textKey);
    t.path.push(p.path);
    t.parent.push(p.parent);
    t.depth.push(p.parent < 0 ? 0 : (t.depth[p.parent] as number) + 1);
    t.members.push(kind >= ARRAY ? [] : NO_MEMBERS);
    if (p.parent >= 0) (t.members[p.parent] as number[]).push(i);
    pushChildren(stack, p.value, i, p);
  }
  measure(t, indent);
  return t;
}

/** Text size of every node, children before parents (highest position first). */
function measure(t: Tree, indent: number): void {
  t.last = Array.from({ length: t.n }, (_, i) => i);
  t.size = new Array<number>(t.n).fill(0);
  t.prefix = new Array<number>(t.n).fill(0);
  for (let i = t.n - 1; i >= 0; i--) {
    const kind = t.kind[i] as number;
    const members = t.members[i] as number[];
    if (kind <= STRING) t.size[i] = scalarSize(t.value[i]);
    else {
      let inner = 0;
      for (const m of members) inner += (t.prefix[m] as number) + (t.size[m] as number);
      const close = indent > 0 ? 1 + indent * (t.depth[i] as number) : 0;
      t.size[i] = members.length === 0 ? 2 : 2 + inner + members.length - 1 + close;
      if (members.length > 0) t.last[i] = t.last[members[members.length - 1] as number] as number;
    }
    const key = t.key[i];
    const line = indent > 0 && i > 0 ? 1 + indent * (t.depth[i] as number) : 0;
    t.prefix[i] = line + (key === undefined ? 0 : stringSize(key) + (indent > 0 ? 2 : 1));
  }
}

export function setMember(target: unknown, key: string | undefined, value: unknown): void {
  if (Array.isArray(target)) target.push(value);
  else if (key === "__proto__")
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else (target as Record<string, unknown>)[key as string] = value;
}
