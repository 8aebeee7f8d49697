/** One trace as tracker shows it: the span tree, its summary, and the `trace view --json` document. */
import type { RawTraceItem } from "../api/traces.ts";
import { buildSpanTree, type SpanNode, splitTraceRoots, summarizeTrace } from "./span-tree.ts";

/** A trace's tree, summary and JSON document (`extra` adds fields, e.g. its logs). */
export function traceDocument(traceId: string, org: string, items: readonly RawTraceItem[]) {
  const { spans, errors } = splitTraceRoots(items);
  const roots: SpanNode[] = buildSpanTree(spans);
  const summary = summarizeTrace(roots, errors);
  const json = (extra: Record<string, unknown> = {}) => ({
    traceId,
    org,
    spanCount: summary.spanCount,
    errorCount: summary.errorCount,
    durationMs: summary.durationMs,
    projects: summary.projects,
    roots,
    errors,
    ...extra,
  });
  // Each span level is two levels of JSON (the span and its children array), plus the document's own.
  return { roots, errors, summary, json, depth: 2 * summary.depth + 2 };
}
