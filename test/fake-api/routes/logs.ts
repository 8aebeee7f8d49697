/**
 * Logs (API.md 17.1, 17.2): the events table endpoint for `dataset=logs` (and the deprecated
 * `ourlogs`). Rows carry exactly the requested fields; `timestamp_precise` is an integer of
 * nanoseconds beyond 2^53, written into the JSON text as digits (as Sentry does). Other datasets
 * go to the next route registered for the same path. Seeds sit relative to FAKE_NOW_MS; a few
 * logs belong to TRACE_NESTED's spans.
 */
import { FAKE_NOW_MS } from "../clock.ts";
import { detail, notFound, paginate } from "../http.ts";
import type { FakeRequest, FakeState, Route } from "../types.ts";
import { eventsScope } from "./events-scope.ts";
import { canSeeOrg, findOrg } from "./orgs.ts";
import { TRACE_NESTED, type TraceNode, traceStore } from "./traces.ts";

const EVENTS = "/api/0/organizations/:org/events/";
const STORE_KEY = "logs";
const BIG = "\u0000big:";
const SEVERITIES: [string, number][] = [
  ["info", 9],
  ["debug", 5],
  ["warn", 13],
  ["error", 17],
  ["info", 9],
  ["trace", 1],
  ["fatal", 21],
];

/** One stored log item. */
export interface FakeLog {
  org: string;
  projectId: string;
  project: string;
  id: string;
  /** Nanoseconds since the epoch. */
  ns: bigint;
  severity: string;
  severityNumber: number;
  message: string;
  trace: string;
  spanId: string | null;
  /** Every other attribute (environment, release, sdk.*, code.*, custom ones), as strings. */
  attributes: Record<string, string>;
}

/** Logs seeded in acme/web within the last 24 hours. */
export const WEB_LOG_COUNT = 150;
/** The newest seeded log of acme/web (a log of TRACE_NESTED's root span). */
export const NEWEST_WEB_LOG = "10900000000000000000000000000000";
/** A log whose message spans lines. */
export const MULTILINE_LOG = "10900000000000000000000000000003";

function hex(seed: string, len: number): string {
  let out = "";
  for (let i = 0; out.length < len; i++) out += Bun.hash(`log:${seed}#${i}`).toString(16).padStart(16, "0");
  return out.slice(0, len);
}

/** Nanoseconds of a millisecond instant plus a sub-millisecond part (so they exceed 2^53 exactly). */
export function nsAt(ms: number, sub = 123_456): bigint {
  return BigInt(ms) * 1_000_000n + BigInt(sub);
}

function spanIds(nodes: readonly TraceNode[], out: Map<string, string> = new Map()): Map<string, string> {
  for (const n of nodes) {
    if (typeof n.span_id === "string") out.set(`${n.op} ${n.description}`, n.span_id);
    spanIds(n.children, out);
  }
  return out;
}

function seed(state: FakeState): FakeLog[] {
  const project = (org: string, slug: string) => {
    const p = state.projects.find((x) => x.org === org && x.slug === slug);
    if (!p) throw new Error(`seed: no project ${org}/${slug}`);
    return p;
  };
  const make = (org: string, slug: string, i: number, ms: number, extra: Partial<FakeLog> = {}): FakeLog => {
    const [severity, severityNumber] = SEVERITIES[i % SEVERITIES.length] as [string, number];
    return {
      org,
      projectId: project(org, slug).id,
      project: slug,
      id: hex(`${org}/${slug}/${i}`, 32),
      ns: nsAt(ms, 100_000 + i),
      severity,
      severityNumber,
      message: `${slug} worker ${i}: processed batch ${i * 7}`,
      trace: hex(`trace ${org}/${slug}/${i % 40}`, 32),
      spanId: i % 3 === 0 ? null : hex(`span ${org}/${slug}/${i}`, 16),
      attributes: {
        environment: "production",
        release: "web@1.4.2",
        "sdk.name": "sentry.javascript.node",
        "sdk.version": "9.12.0",
        "code.function": "processBatch",
        "code.file.path": "src/worker.ts",
        "code.line.number": String(40 + (i % 9)),
      },
      ...extra,
    };
  };
  const tree = traceStore(state).trees.get(TRACE_NESTED);
  const spans = spanIds(tree?.roots ?? []);
  const row = traceStore(state).rows.find((r) => r.trace === TRACE_NESTED);
  const t0 = row ? row.timestampMs - row.durationMs : FAKE_NOW_MS - 60_000;
  const nested = (n: number, slug: string, at: number, span: string | undefined, sev: number, msg: string) =>
    make("acme", slug, 9000 + n, t0 + at, {
      id: `1090000000000000000000000000000${n}`,
      trace: TRACE_NESTED,
      spanId: span ?? null,
      severityNumber: sev,
      severity: sev >= 17 ? "error" : sev >= 13 ? "warn" : "info",
      message: msg,
    });
  const logs: FakeLog[] = [
    nested(0, "web", 230, spans.get("http.server GET /api/users"), 9, "GET /api/users 200 in 245ms"),
    nested(
      1,
      "web",
      12,
      spans.get("db.query SELECT * FROM users WHERE org_id = $1"),
      13,
      "slow query: users",
    ),
    nested(2, "api", 100, spans.get("http.server GET /v1/permissions"), 17, "permission denied for user 42"),
    nested(3, "web", 2, undefined, 9, "request started\nuser=42\tagent=curl"),
  ];
  const generic = WEB_LOG_COUNT - logs.length;
  for (let i = 0; i < generic; i++) logs.push(make("acme", "web", i, FAKE_NOW_MS - 120_000 - i * 9 * 60_000));
  for (let i = 0; i < 20; i++) logs.push(make("acme", "api", i, FAKE_NOW_MS - 90_000 - i * 30 * 60_000));
  for (let i = 0; i < 5; i++) logs.push(make("globex", "web", i, FAKE_NOW_MS - 100_000 - i * 60_000));
  return logs;
}

/** The logs of a server (seeded on first use; tests may add to it between polls). */
export function logStore(state: FakeState): FakeLog[] {
  let s = state.store.get(STORE_KEY) as FakeLog[] | undefined;
  if (!s) {
    s = seed(state);
    state.store.set(STORE_KEY, s);
  }
  return s;
}

/** Adds a log to acme/web (or where `extra` says) `ageMs` before the fake's now; returns it. */
export function addLog(state: FakeState, id: string, ageMs: number, extra: Partial<FakeLog> = {}): FakeLog {
  const log: FakeLog = {
    org: "acme",
    projectId: "300001",
    project: "web",
    id,
    ns: nsAt(FAKE_NOW_MS - ageMs),
    severity: "info",
    severityNumber: 9,
    message: `new log ${id.slice(0, 6)}`,
    trace: TRACE_NESTED,
    spanId: null,
    attributes: {},
    ...extra,
  };
  logStore(state).push(log);
  return log;
}

function iso(ns: bigint): string {
  return `${new Date(Number(ns / 1_000_000n)).toISOString().slice(0, 19)}+00:00`;
}

function fieldValue(log: FakeLog, field: string): unknown {
  switch (field) {
    case "id":
    case "sentry.item_id":
      return log.id;
    case "timestamp":
      return iso(log.ns);
    case "timestamp_precise":
      return `${BIG}${log.ns}`;
    case "severity":
      return log.severity;
    case "severity_number":
      return log.severityNumber;
    case "message":
      return log.message;
    case "trace":
      return log.trace;
    case "span_id":
      return log.spanId;
    case "project":
      return log.project;
    case "project.id":
      return Number(log.projectId);
    default:
      // An unknown plain field is read as a string attribute: null when the log lacks it.
      return log.attributes[field] ?? null;
  }
}

type Test = (log: FakeLog) => boolean;

function compareTerm(key: string, op: string, raw: string): Test | string {
  if (key !== "timestamp_precise" && key !== "severity_number")
    return `Invalid search query: ${key} does not support ${op}`;
  if (!/^-?\d+$/.test(raw)) return `Invalid number: ${raw}`;
  const n = BigInt(raw);
  return (l) => {
    const v = key === "timestamp_precise" ? l.ns : BigInt(l.severityNumber);
    return op === ">" ? v > n : op === ">=" ? v >= n : op === "<" ? v < n : v <= n;
  };
}

/** A subset of Sentry's search syntax: `key:value`, `!key:value`, `key:>N`, quotes, `*`, free text. */
function parseQuery(q: string): Test[] | string {
  const tests: Test[] = [];
  const re = /\s*(!?)(?:([A-Za-z_.]+):)?(?:"((?:[^"\\]|\\.)*)"|([^\s"]+))/y;
  let rest = q.trim();
  while (rest.length > 0) {
    re.lastIndex = 0;
    const m = re.exec(rest);
    if (!m) return `Error parsing search query: unbalanced quotes in '${q}'`;
    rest = rest.slice(m[0].length).trim();
    const [, neg, key, quoted, bare] = m;
    const value = quoted !== undefined ? quoted.replace(/\\(.)/g, "$1") : (bare as string);
    let t: Test | string;
    if (key === undefined) {
      const needle = value.toLowerCase();
      t = (l) => l.message.toLowerCase().includes(needle);
    } else {
      const cmp = /^(>=|<=|>|<)(.+)$/.exec(value);
      if (cmp) t = compareTerm(key, cmp[1] as string, cmp[2] as string);
      else {
        const pattern = new RegExp(
          `^${value
            .split("*")
            .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
            .join(".*")}$`,
          "i",
        );
        t = (l) => {
          const v = fieldValue(l, key);
          return v !== null && v !== undefined && pattern.test(String(v));
        };
      }
    }
    if (typeof t === "string") return t;
    const test = t;
    tests.push(neg ? (l) => !test(l) : test);
  }
  return tests;
}

async function listLogs(req: FakeRequest): Promise<Response> {
  const org = findOrg(req.state, req.params.org ?? "");
  if (!org || !canSeeOrg(req, org)) return notFound();
  const fields = req.query.getAll("field");
  if (fields.length === 0) return detail(400, "No columns selected");
  if (fields.length > 20)
    return detail(400, "You can view up to 20 fields at a time. Please delete some and try again.");
  const fn = fields.find((f) => /\(/.test(f));
  if (fn) return detail(400, `Unknown function ${fn.slice(0, fn.indexOf("("))}`);
  const sort = req.query.get("sort") ?? req.query.get("orderby") ?? "-timestamp";
  const sortField = sort.replace(/^-/, "");
  if (!fields.includes(sortField)) return detail(400, "Cannot order by a field that is not selected.");
  const scoped = eventsScope(req, org);
  if (scoped instanceof Response) return scoped;
  const { windowMs, ids } = scoped;
  const tests = parseQuery(req.query.get("query") ?? "");
  if (typeof tests === "string") return detail(400, tests);
  const from = nsAt(FAKE_NOW_MS - windowMs, 0);
  const byTime = (a: FakeLog, b: FakeLog) => (a.ns < b.ns ? -1 : a.ns > b.ns ? 1 : a.id.localeCompare(b.id));
  const key = (l: FakeLog) => String(fieldValue(l, sortField) ?? "");
  const timeSort = sortField === "timestamp" || sortField === "timestamp_precise";
  const rows = logStore(req.state)
    .filter((l) => l.org === org.slug && ids.has(l.projectId) && l.ns > from && tests.every((t) => t(l)))
    .sort((a, b) => {
      const d = timeSort ? byTime(a, b) : key(a).localeCompare(key(b));
      return sort.startsWith("-") ? -d : d;
    })
    .map((l) => Object.fromEntries(fields.map((f) => [f, fieldValue(l, f)])));
  const types: Record<string, string> = {
    timestamp: "date",
    timestamp_precise: "integer",
    severity_number: "integer",
  };
  const meta = {
    fields: Object.fromEntries(fields.map((f) => [f, types[f] ?? "string"])),
    units: Object.fromEntries(fields.map((f) => [f, null])),
    dataset: "logs",
  };
  const res = paginate(req, rows, {
    sizeParam: "per_page",
    defaultSize: 50,
    wrap: (data) => ({ data, meta }),
  });
  // Nanoseconds go out as bare integers, as the service writes them.
  const text = (await res.text()).replace(/"\\u0000big:(-?\d+)"/g, "$1");
  return new Response(text, { status: res.status, headers: res.headers });
}

/** Answers as the next route registered for the same path would (other datasets). */
async function otherDataset(req: FakeRequest): Promise<Response> {
  const { allRoutes } = await import("./index.ts");
  const at = allRoutes.findIndex((r) => r.handler === listEventsOrPass);
  const next = allRoutes.slice(at + 1).find((r) => r.method === req.method && r.pattern === EVENTS);
  return next ? next.handler(req) : detail(501, `fake API: no route for dataset=${req.query.get("dataset")}`);
}

function listEventsOrPass(req: FakeRequest): Promise<Response> {
  const dataset = req.query.get("dataset");
  return dataset === "logs" || dataset === "ourlogs" ? listLogs(req) : otherDataset(req);
}

/** Routes of this module. */
export const logRoutes: Route[] = [
  { method: "GET", pattern: EVENTS, hosts: "region", scopes: ["event:read"], handler: listEventsOrPass },
];
