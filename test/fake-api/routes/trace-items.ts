/**
 * One span's or log's attributes (API.md §22.10): `GET projects/{org}/{project}/trace-items/{id}/` over the
 * seeded spans of explore-data.ts; the trace id must match and `item_type` must be `spans`.
 */
import { detail, json, notFound } from "../http.ts";
import type { FakeRequest, Route } from "../types.ts";
import { exploreStore, FIELD_TYPES } from "./explore-data.ts";
import { canSeeOrg, findOrg, findProject } from "./orgs.ts";
import { logStore } from "./logs.ts";

function spanItem(req: FakeRequest): Response {
  const org = findOrg(req.state, req.params.org ?? "");
  if (!org || !canSeeOrg(req, org)) return notFound();
  const p = findProject(req.state, org, req.params.project ?? "");
  if (!p) return notFound();
  const itemType = req.query.get("item_type");
  if (itemType !== "spans" && itemType !== "logs")
    return detail(400, "item_type must be one of: spans, logs");
  const trace = req.query.get("trace_id");
  if (!trace) return detail(400, "trace_id is required");
  if (itemType === "logs") return logItem(req, p.id, trace);
  const span = exploreStore(req.state).spans.find(
    (s) => s.projectId === p.id && s.fields.id === req.params.id && s.fields.trace === trace,
  );
  if (!span) return notFound();
  const attributes = Object.entries(span.fields)
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([name, value]) => ({
      name,
      type:
        typeof value === "number"
          ? "float"
          : typeof value === "boolean"
            ? "bool"
            : (FIELD_TYPES.spans[name]?.[0] ?? "str"),
      value,
    }));
  return json({ itemId: req.params.id, timestamp: span.fields.timestamp, attributes, meta: {}, links: null });
}

/** One log's attributes: its own fields and every other attribute it carries, custom ones too. */
function logItem(req: FakeRequest, projectId: string, trace: string): Response {
  const log = logStore(req.state).find(
    (l) => l.projectId === projectId && l.id === req.params.id && l.trace === trace,
  );
  if (!log) return notFound();
  const own: Record<string, string | number | null> = {
    message: log.message,
    severity: log.severity,
    severity_number: log.severityNumber,
    trace: log.trace,
    span_id: log.spanId,
  };
  const attributes = [...Object.entries(own), ...Object.entries(log.attributes)]
    .filter(([, value]) => value !== null)
    .map(([name, value]) => ({ name, type: typeof value === "number" ? "int" : "str", value }));
  return json({
    itemId: log.id,
    timestamp: new Date(Number(log.ns / 1_000_000n)).toISOString(),
    attributes,
    meta: {},
    links: null,
  });
}

/** Routes of this module. */
export const traceItemRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/api/0/projects/:org/:project/trace-items/:id/",
    hosts: "region",
    scopes: ["event:read"],
    handler: spanItem,
  },
];
