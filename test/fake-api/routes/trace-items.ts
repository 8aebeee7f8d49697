/**
 * One span's attributes (API.md §22.10): `GET projects/{org}/{project}/trace-items/{id}/` over the
 * seeded spans of explore-data.ts; the trace id must match and `item_type` must be `spans`.
 */
import { detail, json, notFound } from "../http.ts";
import type { FakeRequest, Route } from "../types.ts";
import { exploreStore, FIELD_TYPES } from "./explore-data.ts";
import { canSeeOrg, findOrg, findProject } from "./orgs.ts";

function spanItem(req: FakeRequest): Response {
  const org = findOrg(req.state, req.params.org ?? "");
  if (!org || !canSeeOrg(req, org)) return notFound();
  const p = findProject(req.state, org, req.params.project ?? "");
  if (!p) return notFound();
  if (req.query.get("item_type") !== "spans") return detail(400, "item_type must be one of: spans, logs");
  const trace = req.query.get("trace_id");
  if (!trace) return detail(400, "trace_id is required");
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
