/**
 * Explore queries (API.md 17.1, 17.3, 17.4): the events table endpoint for the `errors` and
 * `spans` datasets, and `events-timeseries/`. Issue tags (17.5) live in tags.ts and are exported
 * from here too, so the route index registers one module.
 *
 * The events path is shared: `trace list`'s requests (dataset `transactions`, or the spans form
 * with `is_transaction:true` and only its columns) go to traces.ts's handler; `dataset=logs` (and
 * the deprecated `ourlogs`) go to the next route registered for the same path after this one (the
 * logs routes), as if this route did not exist.
 */
import { detail, json, notFound, paginate } from "../http.ts";
import type { FakeRequest, Route, SeedOrg } from "../types.ts";
import { FAKE_NOW_MS } from "../clock.ts";
import { type ExploreItem, exploreStore, FIELD_TYPES } from "./explore-data.ts";
import {
  type Aggregate,
  aggregate,
  aggregateType,
  matches,
  parseAggregate,
  parseSearch,
} from "./explore-search.ts";
import { eventsScope, PERIOD_MS } from "./events-scope.ts";
import { canSeeOrg, findOrg } from "./orgs.ts";
import { tagRoutes } from "./tags.ts";
import { traceRoutes } from "./traces.ts";

const EVENTS = "/api/0/organizations/:org/events/";
const TIMESERIES = "/api/0/organizations/:org/events-timeseries/";
/** The datasets the service accepts (Sentry's DATASET_OPTIONS, abridged), in its error message. */
const DATASETS =
  "discover, errors, issuePlatform, logs, ourlogs, profile_functions, spans, tracemetrics, transactions, uptime_results";
const TRACE_LIST_FIELDS = new Set(["trace", "id", "transaction", "timestamp", "span.duration", "project"]);
/** The service's cap on fields per request. */
export const MAX_FIELDS = 20;
/** The service's cap on points per series (interval × range). */
export const MAX_POINTS = 10_000;

const traceEvents = traceRoutes.find((r) => r.pattern === EVENTS)?.handler as Route["handler"];

/** Answers as the next route for the same path would (the logs engineer's), or 501 when none exists. */
async function passThrough(req: FakeRequest, self: Route["handler"]): Promise<Response> {
  const { allRoutes } = await import("./index.ts");
  const pattern = allRoutes.find((r) => r.handler === self)?.pattern;
  const at = allRoutes.findIndex((r) => r.handler === self);
  const next = allRoutes
    .slice(at + 1)
    .find((r) => r.method === req.method && r.pattern === pattern && r.handler !== traceEvents);
  if (next) return next.handler(req);
  return detail(501, `fake API: no route serves ${req.path} for dataset=${req.query.get("dataset")}`);
}

interface Scope {
  org: SeedOrg;
  items: ExploreItem[];
  types: Record<string, [string, string?]>;
  windowMs: number;
  dataset: "spans" | "errors";
}

/** Org, dataset, period, projects and query shared by both endpoints; a Response is an error. */
function scope(req: FakeRequest, dataset: "spans" | "errors"): Scope | Response {
  const org = findOrg(req.state, req.params.org ?? "");
  if (!org || !canSeeOrg(req, org)) return notFound();
  const scoped = eventsScope(req, org);
  if (scoped instanceof Response) return scoped;
  const { windowMs, ids } = scoped;
  const search = parseSearch(req.query.get("query") ?? "");
  if (typeof search === "string") return detail(400, search);
  const items = exploreStore(req.state)[dataset].filter(
    (i) =>
      i.org === org.slug &&
      ids.has(i.projectId) &&
      i.ms > FAKE_NOW_MS - windowMs &&
      i.ms <= FAKE_NOW_MS &&
      matches(i, search),
  );
  return { org, items, types: FIELD_TYPES[dataset], windowMs, dataset };
}

function datasetOf(req: FakeRequest): "spans" | "errors" | "logs" | Response {
  const d = req.query.get("dataset") ?? "";
  if (d === "spans" || d === "errors") return d;
  if (d === "logs" || d === "ourlogs") return "logs";
  return detail(400, `dataset must be one of: ${DATASETS}`);
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (a == null) return b == null ? 0 : -1;
  if (b == null) return 1;
  return String(a).localeCompare(String(b));
}

async function listEvents(req: FakeRequest): Promise<Response> {
  const raw = req.query.get("dataset");
  const fields = req.query.getAll("field");
  const traceForm =
    raw === "transactions" ||
    (raw === "spans" &&
      fields.length > 0 &&
      fields.every((f) => TRACE_LIST_FIELDS.has(f)) &&
      /\bis_transaction:true\b/.test(req.query.get("query") ?? ""));
  if (traceForm) return traceEvents(req);
  const dataset = datasetOf(req);
  if (dataset instanceof Response) return dataset;
  if (dataset === "logs") return passThrough(req, listEvents);
  if (fields.length === 0) return detail(400, "No columns selected");
  if (fields.length > MAX_FIELDS)
    return detail(400, "You can view up to 20 fields at a time. Please delete some and try again.");
  const aggs = new Map<string, Aggregate>();
  for (const f of fields) {
    const a = parseAggregate(f);
    if (typeof a === "string") return detail(400, a);
    if (a) aggs.set(f, a);
  }
  const sort = req.query.get("sort") ?? req.query.get("orderby");
  const sortField = sort?.replace(/^-/, "");
  if (sortField !== undefined && !fields.includes(sortField))
    return detail(400, "Cannot order by a field that is not selected.");
  const s = scope(req, dataset);
  if (s instanceof Response) return s;
  const plain = fields.filter((f) => !aggs.has(f));
  let rows: Record<string, unknown>[];
  if (aggs.size === 0) {
    rows = s.items.map((i) => Object.fromEntries(fields.map((f) => [f, i.fields[f] ?? null])));
  } else {
    const groups = new Map<string, ExploreItem[]>();
    for (const i of s.items) {
      const k = JSON.stringify(plain.map((f) => i.fields[f] ?? null));
      groups.set(k, [...(groups.get(k) ?? []), i]);
    }
    rows = [...groups.entries()].map(([k, items]) => {
      const keys = JSON.parse(k) as unknown[];
      return Object.fromEntries(
        fields.map((f) => [
          f,
          aggs.has(f) ? aggregate(aggs.get(f) as Aggregate, items, s.windowMs) : keys[plain.indexOf(f)],
        ]),
      );
    });
    // Without a sort, the first aggregate descending (the service leaves the order unspecified).
    const by = sortField ?? ([...aggs.keys()][0] as string);
    const desc = sort === null || sort.startsWith("-");
    rows.sort((a, b) => (desc ? -1 : 1) * compare(a[by], b[by]));
  }
  if (aggs.size === 0 && sortField !== undefined) {
    const desc = (sort as string).startsWith("-");
    rows.sort((a, b) => (desc ? -1 : 1) * compare(a[sortField], b[sortField]));
  }
  const meta = {
    fields: Object.fromEntries(
      fields.map((f) => [
        f,
        aggs.has(f) ? aggregateType(aggs.get(f) as Aggregate, s.types)[0] : (s.types[f]?.[0] ?? "string"),
      ]),
    ),
    units: Object.fromEntries(
      fields.map((f) => [
        f,
        aggs.has(f) ? aggregateType(aggs.get(f) as Aggregate, s.types)[1] : (s.types[f]?.[1] ?? null),
      ]),
    ),
    dataset,
    isMetricsData: false,
    isMetricsExtractedData: false,
    tips: {},
    datasetReason: "unchanged",
    dataScanned: "full",
  };
  return paginate(req, rows, { sizeParam: "per_page", defaultSize: 100, wrap: (data) => ({ data, meta }) });
}

async function timeseries(req: FakeRequest): Promise<Response> {
  const dataset = datasetOf(req);
  if (dataset instanceof Response) return dataset;
  if (dataset === "logs") return passThrough(req, timeseries);
  const yAxis = req.query.getAll("yAxis");
  if (yAxis.length === 0) yAxis.push("count()");
  const aggs: Aggregate[] = [];
  for (const y of yAxis) {
    const a = parseAggregate(y);
    if (typeof a === "string") return detail(400, a);
    if (!a) return detail(400, `${y} is not a valid yAxis`);
    aggs.push(a);
  }
  const groupBy = req.query.getAll("groupBy");
  const topRaw = req.query.get("topEvents");
  const top = topRaw === null ? undefined : Number(topRaw);
  if (top !== undefined) {
    if (!(top >= 1)) return detail(400, "topEvents needs to be at least 1");
    if (top > 10) return detail(400, "Can only get up to 10 top events");
    if (groupBy.length === 0) return detail(400, "groupBy is a required parameter when doing topEvents");
  }
  const rawInterval = req.query.get("interval") ?? "3600";
  const im = /^(\d+)([smhd])?$/.exec(rawInterval);
  const intervalMs = im ? Number(im[1]) * (im[2] ? (PERIOD_MS[im[2]] as number) : 1000) : 3_600_000;
  const s = scope(req, dataset);
  if (s instanceof Response) return s;
  const first = Math.floor((FAKE_NOW_MS - s.windowMs) / intervalMs) * intervalMs;
  const count = Math.ceil((FAKE_NOW_MS - first) / intervalMs);
  if (count * yAxis.length > MAX_POINTS)
    return detail(
      400,
      "Your interval and date range would create too many results. Use a larger interval, or a smaller date range.",
    );
  let groups: { key: unknown[] | null; items: ExploreItem[] }[] = [{ key: null, items: s.items }];
  if (top !== undefined) {
    const map = new Map<string, ExploreItem[]>();
    for (const i of s.items) {
      const k = JSON.stringify(groupBy.map((f) => i.fields[f] ?? null));
      map.set(k, [...(map.get(k) ?? []), i]);
    }
    const sort = req.query.get("sort") ?? `-${yAxis[0]}`;
    const by = parseAggregate(sort.replace(/^-/, ""));
    const rank = typeof by === "object" && by ? by : (aggs[0] as Aggregate);
    const ranked = [...map.entries()]
      .map(([k, items]) => ({
        key: JSON.parse(k) as unknown[],
        items,
        v: aggregate(rank, items, s.windowMs) ?? 0,
      }))
      .sort((a, b) => (sort.startsWith("-") ? b.v - a.v : a.v - b.v));
    const rest = ranked.slice(top).flatMap((g) => g.items);
    groups = ranked.slice(0, top);
    if (rest.length > 0 && req.query.get("excludeOther") !== "1") groups.push({ key: null, items: rest });
  }
  const timeSeries = groups.flatMap((g, order) =>
    aggs.map((a, ai) => {
      const buckets: ExploreItem[][] = Array.from({ length: count }, () => []);
      for (const i of g.items) buckets[Math.floor((i.ms - first) / intervalMs)]?.push(i);
      const [valueType, valueUnit] = aggregateType(a, s.types);
      return {
        yAxis: yAxis[ai] as string,
        ...(top !== undefined && g.key
          ? { groupBy: groupBy.map((key, k) => ({ key, value: g.key?.[k] ?? null })) }
          : {}),
        values: buckets.map((b, bi) => ({
          timestamp: first + bi * intervalMs,
          value: aggregate(a, b, intervalMs) ?? 0,
          incomplete: bi === count - 1,
          sampleCount: b.length,
          sampleRate: 1,
          confidence: null,
        })),
        meta: {
          valueType,
          valueUnit,
          interval: intervalMs,
          ...(top !== undefined ? { order, isOther: g.key === null } : {}),
        },
      };
    }),
  );
  return json({ timeSeries, meta: { dataset, start: first, end: FAKE_NOW_MS } });
}

/** Routes of this module (events table, time series, issue tags). */
export const exploreRoutes: Route[] = [
  { method: "GET", pattern: EVENTS, hosts: "region", scopes: ["event:read"], handler: listEvents },
  { method: "GET", pattern: TIMESERIES, hosts: "region", scopes: ["event:read"], handler: timeseries },
  ...tagRoutes,
];
