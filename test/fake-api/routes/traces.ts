/**
 * Traces (API.md section 7): the Discover events query over the `transactions` dataset and the
 * span-tree endpoint. The server's clock is fixed at TRACE_CLOCK_MS so statsPeriod filtering and
 * every seeded timestamp are deterministic.
 */
import { detail, json, notFound, paginate } from "../http.ts";
import type { FakeRequest, FakeState, Route, SeedOrg } from "../types.ts";
import { FAKE_NOW_MS } from "../clock.ts";
import { canSeeOrg, findOrg } from "./orgs.ts";

/** The fake server's "now" for trace data (same instant as the test context's default clock). */
export const TRACE_CLOCK_MS = FAKE_NOW_MS;

/** A normal nested trace across two projects (web → api), with a run of identical db spans. */
export const TRACE_NESTED = "aaaa1111bbbb2222cccc3333dddd4444";
/** A trace whose second root's parent span is missing (an orphan) and a root with only an event id. */
export const TRACE_ORPHAN = "cafe0000111122223333444455556666";
/** A trace of exactly LARGE_TRACE_SPANS spans, with a deep chain and wide identical runs. */
export const TRACE_LARGE = "facade00111122223333444455556666";
/** A trace with errors attached to spans. */
export const TRACE_ERRORS = "eeee0000111122223333444455556666";
/** Two listed traces sharing their first 8 characters (prefix ambiguity). */
export const TRACE_TWINS = ["abcdef01aaaaaaaaaaaaaaaaaaaaaaaa", "abcdef01bbbbbbbbbbbbbbbbbbbbbbbb"] as const;
/** A trace that lives in globex (de region), not in acme. */
export const TRACE_GLOBEX = "99990000111122223333444455557777";
/** Span count of TRACE_LARGE. */
export const LARGE_TRACE_SPANS = 2000;
/** Depth of the nested chain inside TRACE_LARGE (below its root). */
export const LARGE_TRACE_CHAIN = 30;
/** Transactions seeded in acme/web within the last 7 days. */
export const WEB_RECENT_COUNT = 1050;

/** One row of the transactions dataset, with every field the fake can serve. */
export interface TransactionRow {
  org: string;
  projectId: string;
  project: string;
  trace: string;
  id: string;
  transaction: string;
  timestampMs: number;
  durationMs: number;
}

/** One node of a trace as the trace endpoint returns it. */
export interface TraceNode {
  [key: string]: unknown;
  children: TraceNode[];
}

/** The module's part of the server state. */
export interface TraceStore {
  rows: TransactionRow[];
  /**
   * An older server: the documented `spans` dataset is refused with 400 and only the legacy
   * `transactions` dataset answers. A current server (the default) answers both.
   */
  legacyOnly?: boolean;
  /** Trace id → org slug and root items (hand-built traces). */
  trees: Map<string, { org: string; roots: TraceNode[] }>;
}

const STORE_KEY = "traces";

const NAMES = [
  "GET /api/users",
  "POST /api/orders",
  "GET /api/products/:id",
  "GET /checkout",
  "PUT /api/cart",
  "GET /api/search",
  "DELETE /api/sessions",
  "GET /health",
];

function hex(seed: string, len: number): string {
  let out = "";
  for (let i = 0; out.length < len; i++) out += Bun.hash(`${seed}#${i}`).toString(16).padStart(16, "0");
  return out.slice(0, len);
}

/** Deterministic integer in [0, n) from a seed. */
function pick(seed: string, n: number): number {
  return Number(Bun.hash(seed) % BigInt(n));
}

function iso(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}+00:00`;
}

function projectOf(state: FakeState, org: string, slug: string) {
  const p = state.projects.find((x) => x.org === org && x.slug === slug);
  if (!p) throw new Error(`seed: no project ${org}/${slug}`);
  return p;
}

function seedRows(state: FakeState): TransactionRow[] {
  const rows: TransactionRow[] = [];
  const add = (org: string, slug: string, i: number, ageMs: number, extra: Partial<TransactionRow> = {}) => {
    const p = projectOf(state, org, slug);
    const key = `${org}/${slug}/${i}`;
    rows.push({
      org,
      projectId: p.id,
      project: slug,
      trace: hex(`trace:${key}`, 32),
      id: hex(`event:${key}`, 32),
      transaction: NAMES[pick(`name:${key}`, NAMES.length)] as string,
      timestampMs: TRACE_CLOCK_MS - ageMs,
      durationMs: 5 + pick(`dur:${key}`, 2400),
      ...extra,
    });
  };
  const special: [string, Partial<TransactionRow>][] = [
    [TRACE_NESTED, { transaction: "GET /api/users", durationMs: 245 }],
    [TRACE_ERRORS, { transaction: "GET /checkout", durationMs: 512 }],
    [TRACE_ORPHAN, { transaction: "POST /api/orders", durationMs: 830 }],
    [TRACE_LARGE, { transaction: "POST /api/import", durationMs: 9876 }],
    [TRACE_TWINS[0], { transaction: "GET /api/search", durationMs: 61 }],
    [TRACE_TWINS[1], { transaction: "GET /api/search", durationMs: 58 }],
  ];
  for (let i = 0; i < WEB_RECENT_COUNT; i++) {
    const s = special[i];
    // Nine minutes apart: 1050 rows span about 6.6 days, inside the 7-day window.
    add("acme", "web", i, 60_000 + i * 9 * 60_000, s ? { trace: s[0], ...s[1] } : {});
  }
  for (let i = 0; i < 12; i++) add("acme", "web", WEB_RECENT_COUNT + i, (8 + i) * 86_400_000);
  for (let i = 0; i < 40; i++) add("acme", "api", i, 120_000 + i * 31 * 60_000);
  for (let i = 0; i < 8; i++) add("acme", "worker", i, 300_000 + i * 60 * 60_000);
  for (let i = 0; i < 30; i++) {
    add("globex", "web", i, 90_000 + i * 17 * 60_000, i === 0 ? { trace: TRACE_GLOBEX } : {});
  }
  return rows;
}

interface SpanSpec {
  id: string;
  parent: string | null;
  op: string;
  description: string;
  project: string;
  startMs: number;
  durationMs: number;
  transaction?: string;
  errors?: unknown[];
  withoutSpanId?: boolean;
}

function makeNode(state: FakeState, org: string, s: SpanSpec, children: TraceNode[] = []): TraceNode {
  const p = projectOf(state, org, s.project);
  const eventId = hex(`ev:${s.id}`, 32);
  const node: TraceNode = {
    event_id: eventId,
    transaction_id: eventId,
    span_id: s.id,
    parent_span_id: s.parent,
    op: s.op,
    name: s.op,
    description: s.description,
    transaction: s.transaction ?? s.description,
    is_transaction: s.transaction !== undefined,
    event_type: "span",
    project_id: Number(p.id),
    project_slug: p.slug,
    start_timestamp: s.startMs / 1000,
    end_timestamp: (s.startMs + s.durationMs) / 1000,
    duration: s.durationMs,
    sdk_name: "sentry.javascript.node",
    profile_id: "",
    profiler_id: "",
    measurements: {},
    errors: s.errors ?? [],
    occurrences: [],
    children,
  };
  if (s.withoutSpanId) delete node.span_id;
  return node;
}

function spanId(seed: string): string {
  return hex(`span:${seed}`, 16);
}

function nestedTrace(state: FakeState, t0: number): TraceNode[] {
  const root = spanId("nested-root");
  const client = spanId("nested-client");
  const apiTx = spanId("nested-api-tx");
  const n = (s: Omit<SpanSpec, "project"> & { project?: string }, kids: TraceNode[] = []) =>
    makeNode(state, "acme", { project: "web", ...s }, kids);
  const avatars = Array.from({ length: 6 }, (_, i) =>
    n({
      id: spanId(`nested-avatar-${i}`),
      parent: root,
      op: "db.query",
      description: "SELECT * FROM avatars WHERE user_id = $1",
      startMs: t0 + 45 + i * 5,
      durationMs: 5,
    }),
  );
  return [
    n(
      {
        id: root,
        parent: null,
        op: "http.server",
        description: "GET /api/users",
        transaction: "GET /api/users",
        startMs: t0,
        durationMs: 245,
      },
      [
        n({
          id: spanId("nested-cors"),
          parent: root,
          op: "middleware.express",
          description: "corsMiddleware",
          startMs: t0 + 1,
          durationMs: 3,
        }),
        n({
          id: spanId("nested-users"),
          parent: root,
          op: "db.query",
          description: "SELECT * FROM users WHERE org_id = $1",
          startMs: t0 + 5,
          durationMs: 40,
        }),
        ...avatars,
        n(
          {
            id: client,
            parent: root,
            op: "http.client",
            description: "GET http://api.internal/v1/permissions",
            startMs: t0 + 80,
            durationMs: 120,
          },
          [
            n(
              {
                id: apiTx,
                parent: client,
                op: "http.server",
                description: "GET /v1/permissions",
                transaction: "GET /v1/permissions",
                project: "api",
                startMs: t0 + 85,
                durationMs: 110,
              },
              [
                n({
                  id: spanId("nested-role"),
                  parent: apiTx,
                  op: "db.query",
                  description: "SELECT role FROM members WHERE user_id = %s",
                  project: "api",
                  startMs: t0 + 90,
                  durationMs: 30,
                }),
                n({
                  id: spanId("nested-cache"),
                  parent: apiTx,
                  op: "cache.get",
                  description: "perm:12345",
                  project: "api",
                  startMs: t0 + 125,
                  durationMs: 2,
                }),
              ],
            ),
          ],
        ),
        n({
          id: spanId("nested-render"),
          parent: root,
          op: "serialize",
          description: "render users",
          startMs: t0 + 205,
          durationMs: 15,
        }),
      ],
    ),
  ];
}

function orphanTrace(state: FakeState, t0: number): TraceNode[] {
  const root = spanId("orphan-root");
  const n = (s: SpanSpec, kids: TraceNode[] = []) => makeNode(state, "acme", s, kids);
  return [
    n(
      {
        id: root,
        parent: null,
        op: "http.server",
        description: "POST /api/orders",
        transaction: "POST /api/orders",
        project: "web",
        startMs: t0,
        durationMs: 830,
      },
      [
        n({
          id: spanId("orphan-insert"),
          parent: root,
          op: "db.query",
          description: "INSERT INTO orders VALUES ($1, $2)",
          project: "web",
          startMs: t0 + 10,
          durationMs: 20,
        }),
      ],
    ),
    // The queue producer span was never received, so the consumer's parent is not in the trace.
    n(
      {
        id: spanId("orphan-task"),
        parent: "ffff000011112222",
        op: "queue.process",
        description: "process_order",
        transaction: "process_order",
        project: "api",
        startMs: t0 + 400,
        durationMs: 300,
      },
      [
        n({
          id: spanId("orphan-task-db"),
          parent: spanId("orphan-task"),
          op: "db.query",
          description: "UPDATE orders SET state = 'paid'",
          project: "api",
          startMs: t0 + 420,
          durationMs: 25,
        }),
      ],
    ),
    n({
      id: "",
      parent: null,
      op: "default",
      description: "cron heartbeat",
      transaction: "cron heartbeat",
      project: "api",
      startMs: t0 + 900,
      durationMs: 1,
      withoutSpanId: true,
    }),
  ];
}

function errorTrace(state: FakeState, t0: number): TraceNode[] {
  const root = spanId("errors-root");
  const pay = spanId("errors-pay");
  const n = (s: SpanSpec, kids: TraceNode[] = []) => makeNode(state, "acme", s, kids);
  const web = projectOf(state, "acme", "web");
  // The published shape (API.md 7.2): the title is `description`, there is no `title` key.
  const err = (i: number, title: string, span: string | null, level = "error", project = web) => ({
    event_id: hex(`error-event-${i}`, 32),
    event_type: "error",
    issue_id: 4001 + i,
    short_id: `${project.slug.toUpperCase()}-${i + 1}`,
    level,
    description: title,
    culprit: "checkout(app/checkout.js)",
    project_id: Number(project.id),
    project_slug: project.slug,
    transaction: "GET /checkout",
    issue_type: 1,
    start_timestamp: (t0 + 30 + i) / 1000,
    ...(span ? { span } : {}),
  });
  return [
    n(
      {
        id: root,
        parent: null,
        op: "http.server",
        description: "GET /checkout",
        transaction: "GET /checkout",
        project: "web",
        startMs: t0,
        durationMs: 512,
        errors: [err(0, "Error: checkout failed", root)],
      },
      [
        n({
          id: spanId("errors-cart"),
          parent: root,
          op: "db.query",
          description: "SELECT * FROM carts WHERE id = $1",
          project: "web",
          startMs: t0 + 4,
          durationMs: 12,
        }),
        n({
          id: pay,
          parent: root,
          op: "http.client",
          description: "POST https://payments.example.com/charge",
          project: "web",
          startMs: t0 + 20,
          durationMs: 480,
          errors: [
            err(1, "TypeError: Cannot read properties of undefined (reading 'amount')", pay),
            // An older server's error: the title under `title`.
            (({ description, ...rest }) => ({ ...rest, title: description }))(
              err(2, "PaymentTimeout: upstream took too long", pay, "warning"),
            ),
          ],
        }),
      ],
    ),
    // A root that is itself an error: its span (in the api service) is not part of the trace.
    err(3, "KeyError: 'customer_id'", null, "error", projectOf(state, "acme", "api")) as unknown as TraceNode,
  ];
}

/** Builds TRACE_LARGE: root, a chain of LARGE_TRACE_CHAIN nested calls, 49 batches of 39 spans, 9 leaves. */
function largeTrace(state: FakeState, t0: number): TraceNode[] {
  const root = spanId("large-root");
  const n = (s: Omit<SpanSpec, "project">, kids: TraceNode[] = []) =>
    makeNode(state, "acme", { project: "web", ...s }, kids);
  let chain: TraceNode[] = [];
  for (let d = LARGE_TRACE_CHAIN - 1; d >= 0; d--) {
    const id = spanId(`large-chain-${d}`);
    const parent = d === 0 ? root : spanId(`large-chain-${d - 1}`);
    chain = [
      n(
        {
          id,
          parent,
          op: "function",
          description: `parseRecord level ${d}`,
          startMs: t0 + 5 + d,
          durationMs: 60 - d,
        },
        chain,
      ),
    ];
  }
  const batches: TraceNode[] = [];
  for (let b = 0; b < 49; b++) {
    const id = spanId(`large-batch-${b}`);
    const start = t0 + 100 + b * 190;
    const kids: TraceNode[] = [];
    for (let k = 0; k < 30; k++) {
      kids.push(
        n({
          id: spanId(`large-batch-${b}-q-${k}`),
          parent: id,
          op: "db.query",
          description: "INSERT INTO records (id, payload) VALUES ($1, $2)",
          startMs: start + 1 + k * 5,
          durationMs: 3 + (k % 3),
        }),
      );
    }
    for (let k = 0; k < 9; k++) {
      kids.push(
        n({
          id: spanId(`large-batch-${b}-c-${k}`),
          parent: id,
          op: "cache.set",
          description: `records:batch-${b}:part-${k}`,
          startMs: start + 155 + k * 3,
          durationMs: 2,
        }),
      );
    }
    batches.push(
      n(
        {
          id,
          parent: root,
          op: "task.run",
          description: `import batch ${b}`,
          startMs: start,
          durationMs: 185,
        },
        kids,
      ),
    );
  }
  const leaves = Array.from({ length: 9 }, (_, i) =>
    n({
      id: spanId(`large-leaf-${i}`),
      parent: root,
      op: "http.client",
      description: `POST https://hooks.example.com/notify/${i}`,
      startMs: t0 + 9500 + i * 40,
      durationMs: 35,
    }),
  );
  return [
    n(
      {
        id: root,
        parent: null,
        op: "http.server",
        description: "POST /api/import",
        transaction: "POST /api/import",
        startMs: t0,
        durationMs: 9876,
      },
      [...chain, ...batches, ...leaves],
    ),
  ];
}

/** A small generic tree for any listed transaction without a hand-built trace. */
function genericTrace(state: FakeState, row: TransactionRow): TraceNode[] {
  const root = spanId(`generic-${row.trace}`);
  const t0 = row.timestampMs - row.durationMs;
  const q = Math.max(1, Math.floor(row.durationMs / 4));
  const n = (s: Omit<SpanSpec, "project">, kids: TraceNode[] = []) =>
    makeNode(state, row.org, { project: row.project, ...s }, kids);
  return [
    n(
      {
        id: root,
        parent: null,
        op: "http.server",
        description: row.transaction,
        transaction: row.transaction,
        startMs: t0,
        durationMs: row.durationMs,
      },
      [
        n({
          id: spanId(`generic-db-${row.trace}`),
          parent: root,
          op: "db.query",
          description: "SELECT 1",
          startMs: t0 + 1,
          durationMs: q,
        }),
        n({
          id: spanId(`generic-render-${row.trace}`),
          parent: root,
          op: "serialize",
          description: "render",
          startMs: t0 + 1 + q,
          durationMs: q,
        }),
      ],
    ),
  ];
}

function buildStore(state: FakeState): TraceStore {
  const rows = seedRows(state);
  const startOf = (trace: string) => {
    const r = rows.find((x) => x.trace === trace) as TransactionRow;
    return r.timestampMs - r.durationMs;
  };
  const trees = new Map<string, { org: string; roots: TraceNode[] }>([
    [TRACE_NESTED, { org: "acme", roots: nestedTrace(state, startOf(TRACE_NESTED)) }],
    [TRACE_ORPHAN, { org: "acme", roots: orphanTrace(state, startOf(TRACE_ORPHAN)) }],
    [TRACE_ERRORS, { org: "acme", roots: errorTrace(state, startOf(TRACE_ERRORS)) }],
    [TRACE_LARGE, { org: "acme", roots: largeTrace(state, startOf(TRACE_LARGE)) }],
  ]);
  return { rows, trees };
}

/** The trace data of a server (built on first use; tests may mutate it). */
export function traceStore(state: FakeState): TraceStore {
  let s = state.store.get(STORE_KEY) as TraceStore | undefined;
  if (!s) {
    s = buildStore(state);
    state.store.set(STORE_KEY, s);
  }
  return s;
}

const PERIOD_UNITS_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** Parses statsPeriod like Sentry (`<n><s|m|h|d|w>`); null when malformed. */
function periodMs(raw: string | null): number | undefined | null {
  if (raw === null) return undefined;
  const m = /^(\d+)([smhdw])$/.exec(raw);
  return m ? Number(m[1]) * (PERIOD_UNITS_MS[m[2] as string] as number) : null;
}

interface Filter {
  key: string | undefined;
  value: string;
}

/** A small subset of Sentry's search syntax: `key:value`, `key:"quoted value"`, free text. */
function parseQuery(q: string): Filter[] | string {
  const out: Filter[] = [];
  const re = /\s*(?:([A-Za-z_.]+):)?(?:"((?:[^"\\]|\\.)*)"|([^\s"]+))/y;
  let rest = q.trim();
  while (rest.length > 0) {
    re.lastIndex = 0;
    const m = re.exec(rest);
    if (!m) return `Error parsing search query: unbalanced quotes in '${q}'`;
    out.push({ key: m[1], value: m[2] !== undefined ? m[2].replace(/\\(.)/g, "$1") : (m[3] as string) });
    rest = rest.slice(m[0].length).trim();
  }
  return out;
}

function globMatch(pattern: string, text: string): boolean {
  if (!pattern.includes("*")) return pattern === text;
  const re = new RegExp(
    `^${pattern
      .split("*")
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*")}$`,
  );
  return re.test(text);
}

function rowMatches(r: TransactionRow, filters: Filter[]): boolean {
  return filters.every((f) => {
    if (f.key === undefined) return r.transaction.toLowerCase().includes(f.value.toLowerCase());
    if (f.key === "transaction") return globMatch(f.value, r.transaction);
    if (f.key === "project") return r.project === f.value;
    if (f.key === "trace") return r.trace === f.value;
    // Every seeded row is a transaction (a segment span in the spans dataset).
    if (f.key === "is_transaction") return f.value === "true" || f.value === "1";
    // Unknown keys are tag filters in Sentry; no seeded row carries tags, so nothing matches.
    return false;
  });
}

const FIELD_TYPES: Record<string, [string, string?]> = {
  trace: ["string"],
  id: ["string"],
  transaction: ["string"],
  timestamp: ["date"],
  "transaction.duration": ["duration", "millisecond"],
  "span.duration": ["duration", "millisecond"],
  project: ["string"],
};

function fieldValue(r: TransactionRow, field: string): unknown {
  switch (field) {
    case "trace":
      return r.trace;
    case "id":
      return r.id;
    case "transaction":
      return r.transaction;
    case "timestamp":
      return iso(r.timestampMs);
    case "transaction.duration":
    case "span.duration":
      return r.durationMs;
    case "project":
      return r.project;
    default:
      // Discover treats unknown columns as tags; untagged rows give null.
      return null;
  }
}

function orgOr404(req: FakeRequest): SeedOrg | Response {
  const org = findOrg(req.state, req.params.org ?? "");
  if (!org || !canSeeOrg(req, org)) return notFound();
  return org;
}

function listEvents(req: FakeRequest): Response {
  const org = orgOr404(req);
  if (org instanceof Response) return org;
  const dataset = req.query.get("dataset");
  const legacyOnly = traceStore(req.state).legacyOnly === true;
  if (dataset !== "transactions" && (dataset !== "spans" || legacyOnly))
    return detail(400, `Invalid dataset: ${dataset ?? "(none)"}`);
  const fields = req.query.getAll("field");
  if (fields.length === 0) return detail(400, "No columns selected");
  // Each dataset has its own duration column.
  const foreign = dataset === "spans" ? "transaction.duration" : "span.duration";
  if (fields.includes(foreign))
    return detail(400, `Invalid field: ${foreign} is not in the ${dataset} dataset`);
  const sort = req.query.get("sort") ?? "-timestamp";
  const sortField = sort.replace(/^-/, "");
  if (!fields.includes(sortField)) return detail(400, "Cannot order by a field that is not selected.");
  const period = periodMs(req.query.get("statsPeriod"));
  if (period === null) return detail(400, `Invalid date range: statsPeriod=${req.query.get("statsPeriod")}`);
  const window = period ?? 14 * 86_400_000;
  const projectParams = req.query.getAll("project");
  if (projectParams.some((p) => !/^-?\d+$/.test(p))) {
    return detail(400, "Invalid project parameter. Values must be numbers.");
  }
  const orgProjects = req.state.projects.filter((p) => p.org === org.slug);
  let projectIds: Set<string>;
  if (projectParams.length === 0)
    projectIds = new Set(orgProjects.filter((p) => p.isMember).map((p) => p.id));
  else if (projectParams.includes("-1")) projectIds = new Set(orgProjects.map((p) => p.id));
  else {
    if (projectParams.some((id) => !orgProjects.some((p) => p.id === id))) {
      return detail(403, "You do not have permission to perform this action.");
    }
    projectIds = new Set(projectParams);
  }
  const filters = parseQuery(req.query.get("query") ?? "");
  if (typeof filters === "string") return detail(400, filters);
  const rows = traceStore(req.state)
    .rows.filter(
      (r) =>
        r.org === org.slug &&
        projectIds.has(r.projectId) &&
        r.timestampMs > TRACE_CLOCK_MS - window &&
        rowMatches(r, filters),
    )
    .sort((a, b) => {
      const key = (r: TransactionRow) =>
        sortField === "transaction.duration" || sortField === "span.duration" ? r.durationMs : r.timestampMs;
      const d = sort.startsWith("-") ? key(b) - key(a) : key(a) - key(b);
      return d !== 0 ? d : a.id.localeCompare(b.id);
    })
    .map((r) => Object.fromEntries(fields.map((f) => [f, fieldValue(r, f)])));
  const meta = {
    fields: Object.fromEntries(fields.map((f) => [f, FIELD_TYPES[f]?.[0] ?? "string"])),
    units: Object.fromEntries(fields.map((f) => [f, FIELD_TYPES[f]?.[1] ?? null])),
  };
  return paginate(req, rows, { sizeParam: "per_page", defaultSize: 50, wrap: (data) => ({ data, meta }) });
}

function viewTrace(req: FakeRequest): Response {
  const org = orgOr404(req);
  if (org instanceof Response) return org;
  const id = req.params.traceId ?? "";
  // Sentry validates the id's shape before querying (exact wording unconfirmed).
  if (!/^[0-9a-f]{32}$/.test(id)) return detail(400, "Invalid trace id.");
  const period = periodMs(req.query.get("statsPeriod"));
  if (period === null) return detail(400, `Invalid date range: statsPeriod=${req.query.get("statsPeriod")}`);
  const store = traceStore(req.state);
  const row = store.rows.find((r) => r.trace === id && r.org === org.slug);
  if (!row) return json([]);
  if (period !== undefined && row.timestampMs <= TRACE_CLOCK_MS - period) return json([]);
  const tree = store.trees.get(id);
  return json(tree && tree.org === org.slug ? tree.roots : genericTrace(req.state, row));
}

/** Routes of this module. */
export const traceRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/api/0/organizations/:org/events/",
    hosts: "region",
    scopes: ["event:read"],
    handler: listEvents,
  },
  {
    method: "GET",
    pattern: "/api/0/organizations/:org/trace/:traceId/",
    hosts: "region",
    scopes: ["event:read"],
    handler: viewTrace,
  },
];
