/**
 * One span's details (API.md §22.10): `GET projects/{org}/{project}/trace-items/{id}/` with its
 * trace id and `item_type=spans` → every attribute of the span with its type.
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

/** The attributes of one span of a trace. */
export async function getSpanItem(
  ctx: TrackerContext,
  o: { org: string; project: string; spanId: string; traceId: string },
): Promise<TraceItem> {
  const res = await apiRequest(ctx, {
    path: `/api/0/projects/${encodeURIComponent(o.org)}/${encodeURIComponent(o.project)}/trace-items/${encodeURIComponent(o.spanId)}/`,
    host: { org: o.org },
    query: { trace_id: o.traceId, item_type: "spans" },
    schema: TraceItem,
  });
  return res.data;
}
