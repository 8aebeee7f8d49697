/**
 * The query engine of the fake explore endpoints: a subset of Sentry's search syntax (`key:value`,
 * `!key:value`, `key:[a,b]`, `key:>N` with ms/s units, `*` wildcards, quoted values, free text,
 * `AND`/`OR`), and the aggregate functions of API.md 17.1 with Sentry's error for unknown ones.
 */
import type { ExploreItem } from "./explore-data.ts";

type Test = (item: ExploreItem) => boolean;

/** Free text matches any of these fields (substring, case-insensitive). */
const TEXT_FIELDS = ["span.description", "transaction", "title", "message"];

function glob(pattern: string): RegExp {
  const body = pattern
    .split("*")
    .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}$`, "i");
}

function numberOf(raw: string): number | undefined {
  const m = /^(-?\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(raw);
  if (!m) return undefined;
  const scale = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] ?? "ms"] as number;
  return Number(m[1]) * (m[2] ? scale : 1);
}

function term(key: string, raw: string): Test | string {
  const cmp = /^(>=|<=|>|<)(.+)$/.exec(raw);
  if (cmp) {
    const n = numberOf(cmp[2] as string);
    if (n === undefined) return `Invalid number: ${cmp[2]}`;
    const op = cmp[1];
    return (i) => {
      const v = i.fields[key];
      if (typeof v !== "number") return false;
      return op === ">" ? v > n : op === "<" ? v < n : op === ">=" ? v >= n : v <= n;
    };
  }
  const list = /^\[(.*)\]$/.exec(raw);
  const values = list ? (list[1] as string).split(",").map((s) => s.trim().replace(/^"|"$/g, "")) : [raw];
  const res = values.map(glob);
  return (i) => {
    const v = i.fields[key];
    if (v === null || v === undefined) return false;
    return res.some((re) => re.test(String(v)));
  };
}

/** Parses a search query into groups of tests (OR of ANDs); a string is Sentry's 400 detail. */
export function parseSearch(q: string): Test[][] | string {
  const groups: Test[][] = [[]];
  const re = /\s*(!?)(?:([A-Za-z_.[\],]+):)?(?:"((?:[^"\\]|\\.)*)"|(\[[^\]]*\]|[^\s"]+))/y;
  let rest = q.trim();
  while (rest.length > 0) {
    re.lastIndex = 0;
    const m = re.exec(rest);
    if (!m) return `Error parsing search query: unbalanced quotes in '${q}'`;
    rest = rest.slice(m[0].length).trim();
    const [, not, key, quoted, bare] = m;
    const value = quoted !== undefined ? quoted.replace(/\\(.)/g, "$1") : (bare as string);
    if (!key && !not && value === "AND") continue;
    if (!key && !not && value === "OR") {
      groups.push([]);
      continue;
    }
    let test: Test | string;
    if (key) test = term(key, value);
    else {
      const needle = value.toLowerCase();
      test = (i) =>
        TEXT_FIELDS.some((f) =>
          String(i.fields[f] ?? "")
            .toLowerCase()
            .includes(needle),
        );
    }
    if (typeof test === "string") return test;
    const t = test;
    (groups[groups.length - 1] as Test[]).push(not ? (i) => !t(i) : t);
  }
  return groups;
}

/** True when the item passes the parsed query. */
export function matches(item: ExploreItem, groups: Test[][]): boolean {
  return groups.some((g) => g.every((t) => t(item)));
}

/** A parsed aggregate: its function and argument. */
export interface Aggregate {
  fn: string;
  arg: string;
}

const PERCENTILES: Record<string, number> = { p50: 0.5, p75: 0.75, p90: 0.9, p95: 0.95, p99: 0.99, p100: 1 };
const KNOWN = new Set([
  "count",
  "count_unique",
  "avg",
  "sum",
  "min",
  "max",
  "epm",
  "eps",
  ...Object.keys(PERCENTILES),
]);

/** `name(args)` → Aggregate; undefined for a plain field; a string is the 400 detail. */
export function parseAggregate(field: string): Aggregate | undefined | string {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)\((.*)\)$/.exec(field.trim());
  if (!m) return undefined;
  const fn = m[1] as string;
  if (!KNOWN.has(fn)) return `Unknown function ${fn}`;
  return { fn, arg: (m[2] as string).trim() };
}

/** The type and unit of an aggregate's value, as `meta` reports them. */
export function aggregateType(
  a: Aggregate,
  types: Record<string, [string, string?]>,
): [string, string | null] {
  if (a.fn === "count" || a.fn === "count_unique") return ["integer", null];
  if (a.fn === "epm") return ["rate", "1/minute"];
  if (a.fn === "eps") return ["rate", "1/second"];
  const t = types[a.arg];
  return t && (t[0] === "duration" || t[0] === "integer" || t[0] === "number")
    ? [t[0] === "integer" ? "number" : t[0], t[1] ?? null]
    : ["number", null];
}

/** The value of an aggregate over items within a window of `windowMs`. */
export function aggregate(a: Aggregate, items: readonly ExploreItem[], windowMs: number): number | null {
  if (a.fn === "count")
    return a.arg === "" ? items.length : items.filter((i) => i.fields[a.arg] != null).length;
  if (a.fn === "count_unique")
    return new Set(items.map((i) => i.fields[a.arg]).filter((v) => v != null)).size;
  if (a.fn === "epm") return items.length / (windowMs / 60_000);
  if (a.fn === "eps") return items.length / (windowMs / 1000);
  const nums = items.map((i) => i.fields[a.arg]).filter((v): v is number => typeof v === "number");
  if (nums.length === 0) return null;
  if (a.fn === "sum") return nums.reduce((x, y) => x + y, 0);
  if (a.fn === "avg") return nums.reduce((x, y) => x + y, 0) / nums.length;
  if (a.fn === "min") return Math.min(...nums);
  if (a.fn === "max") return Math.max(...nums);
  const sorted = [...nums].sort((x, y) => x - y);
  const q = PERCENTILES[a.fn] as number;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? null;
}
