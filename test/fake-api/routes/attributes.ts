/**
 * Query fields and tags (API.md §22.3): trace-item attributes of the spans and logs datasets
 * (`dataset` or `itemType` required, `attributeType` filter, case-sensitive `substringMatch`,
 * offset cursor) and the tag keys of error events.
 */
import { detail, json, notFound, paginate } from "../http.ts";
import type { FakeRequest, Route } from "../types.ts";
import { canSeeOrg, findOrg } from "./orgs.ts";
import { absoluteWindow } from "./window.ts";

type Source = "sentry" | "user";
const attr = (key: string, type: string, source: Source, name = key) => ({
  key,
  name,
  attributeSource: { source_type: source },
  attributeType: type,
});

/** The attributes of each trace-item dataset. */
export const TRACE_ITEM_ATTRIBUTES: Record<string, ReturnType<typeof attr>[]> = {
  spans: [
    attr("span.op", "string", "sentry"),
    attr("span.description", "string", "sentry"),
    attr("span.duration", "number", "sentry"),
    attr("transaction", "string", "sentry"),
    attr("is_transaction", "boolean", "sentry"),
    attr("payment.provider", "string", "user"),
    attr("tags[amount,number]", "number", "user", "amount"),
    attr("tags[retried,boolean]", "boolean", "user", "retried"),
    // Enough rows for a second page at -n 100.
    ...Array.from({ length: 110 }, (_, i) =>
      attr(`custom.field_${String(i).padStart(3, "0")}`, "string", "user"),
    ),
  ],
  logs: [
    attr("severity", "string", "sentry"),
    attr("message", "string", "sentry"),
    attr("trace", "string", "sentry"),
    attr("payment.provider", "string", "user"),
    attr("tags[retry_count,number]", "number", "user", "retry_count"),
  ],
};

/** Tag keys of error events. */
export const ERROR_TAG_KEYS = [
  { key: "environment", name: "Environment", totalValues: 2 },
  { key: "release", name: "Release", totalValues: 12 },
  { key: "browser", name: "Browser", totalValues: 5 },
  { key: "url", name: "URL", totalValues: 150 },
];

function orgOr404(req: FakeRequest) {
  const org = findOrg(req.state, req.params.org ?? "");
  return org && canSeeOrg(req, org) ? org : undefined;
}

function listTraceItemAttributes(req: FakeRequest): Response {
  if (!orgOr404(req)) return notFound();
  const dataset = req.query.get("dataset") ?? req.query.get("itemType");
  if (!dataset) return json({ non_field_errors: ["dataset is required if itemType is not passed"] }, 400);
  const rows = TRACE_ITEM_ATTRIBUTES[dataset];
  if (!rows) return detail(400, `Invalid dataset: ${dataset}`);
  const window = absoluteWindow(req);
  if (window instanceof Response) return window;
  const types = req.query.getAll("attributeType");
  const sub = req.query.get("substringMatch") ?? "";
  const items = rows.filter(
    (a) => (types.length === 0 || types.includes(a.attributeType)) && a.name.includes(sub),
  );
  return paginate(req, items, { sizeParam: "per_page", defaultSize: 100 });
}

function listOrgTags(req: FakeRequest): Response {
  if (!orgOr404(req)) return notFound();
  const window = absoluteWindow(req);
  if (window instanceof Response) return window;
  return json(ERROR_TAG_KEYS);
}

/** Routes of this module. */
export const attributeRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/api/0/organizations/:org/trace-items/attributes/",
    hosts: "region",
    scopes: ["org:read"],
    handler: listTraceItemAttributes,
  },
  {
    method: "GET",
    pattern: "/api/0/organizations/:org/tags/",
    hosts: "region",
    scopes: ["org:read"],
    handler: listOrgTags,
  },
];
