/**
 * One span's or log's details (API.md §22.10): `GET projects/{org}/{project}/trace-items/{id}/`
 * with its trace id and `item_type=spans|logs` → every attribute of the item with its type.
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { apiRequest } from "../http/client.ts";

/** A trace item: its id, time and attributes (`value` is a string, number or boolean). */
export const TraceItem = v.looseObject({
  itemId: v.string(),
  timestamp: v.optional(v.nullable(v.string())),
  attributes: v.array(
    v.looseObject({
      name: v.string(),
      type: v.optional(v.nullable(v.string())),
      value: v.optional(v.nullable(v.union([v.string(), v.number(), v.boolean()]))),
    }),
  ),
});
/** A validated trace item. */
export type TraceItem = v.InferOutput<typeof TraceItem>;

/** Every attribute of one item (a span or a log) of a trace. */
export async function getTraceItem(
  ctx: TrackerContext,
  o: { org: string; project: string; itemId: string; traceId: string; itemType: "spans" | "logs" },
): Promise<TraceItem> {
  const res = await apiRequest(ctx, {
    path: `/api/0/projects/${encodeURIComponent(o.org)}/${encodeURIComponent(o.project)}/trace-items/${encodeURIComponent(o.itemId)}/`,
    host: { org: o.org },
    query: { trace_id: o.traceId, item_type: o.itemType },
    schema: TraceItem,
  });
  return res.data;
}

/** The attributes of one span of a trace. */
export function getSpanItem(
  ctx: TrackerContext,
  o: { org: string; project: string; spanId: string; traceId: string },
): Promise<TraceItem> {
  return getTraceItem(ctx, {
    org: o.org,
    project: o.project,
    itemId: o.spanId,
    traceId: o.traceId,
    itemType: "spans",
  });
}
