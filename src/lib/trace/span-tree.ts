/**
 * Turns the trace endpoint's nested items into the span tree `trace view` prints and emits as
 * JSON: our field names, children ordered by start time, self time, orphan marks and totals.
 */
import type { RawTraceError, RawTraceItem } from "../api/traces.ts";

/** An error event attached to a span. */
export interface SpanError {
  eventId: string | null;
  issueId: string | null;
  shortId: string | null;
  level: string | null;
  title: string;
}

/** An error of the trace whose span is not in the trace (a root item that is an error). */
export interface TraceError extends SpanError {
  project: string | null;
  culprit: string | null;
  /** Unix seconds (float). */
  timestamp: number | null;
}

/** One span (or transaction) of the tree; the `trace view --json` contract. */
export interface SpanNode {
  spanId: string;
  parentSpanId: string | null;
  op: string | null;
  description: string | null;
  project: string | null;
  /** Unix seconds (float), as the API gives them. */
  startTimestamp: number | null;
  /** End time, Unix seconds (float). */
  timestamp: number | null;
  durationMs: number | null;
  /** Duration minus the time covered by children (overlapping children count once). */
  selfTimeMs: number | null;
  /** True for transaction roots (one per service hop). */
  isTransaction: boolean;
  /** True for a root whose parent span is not part of the trace. */
  orphan: boolean;
  errors: SpanError[];
  children: SpanNode[];
}

/** Totals over a whole trace. */
export interface TraceSummary {
  spanCount: number;
  errorCount: number;
  /** Earliest start to latest end, in milliseconds. */
  durationMs: number | null;
  startTimestamp: number | null;
  /** Project slugs in order of first appearance. */
  projects: string[];
  /** Transaction name of the first root, when known. */
  rootTransaction: string | null;
  /** Levels of nesting (1 for roots alone). */
  depth: number;
}

/** Rounds to microseconds so float noise (0.1 + 0.2) does not leak into output. */
function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** Milliseconds of [start, end] covered by the union of the given intervals (clipped to the range). */
export function coveredMs(
  start: number,
  end: number,
  intervals: readonly (readonly [number, number])[],
): number {
  const clipped = intervals
    .map(([s, e]) => [Math.max(s, start), Math.min(e, end)] as const)
    .filter(([s, e]) => e > s)
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let curStart = Number.NaN;
  let curEnd = Number.NaN;
  for (const [s, e] of clipped) {
    if (Number.isNaN(curEnd) || s > curEnd) {
      if (!Number.isNaN(curEnd)) total += curEnd - curStart;
      curStart = s;
      curEnd = e;
    } else if (e > curEnd) {
      curEnd = e;
    }
  }
  if (!Number.isNaN(curEnd)) total += curEnd - curStart;
  return total * 1000;
}

function num(x: unknown): number | null {
  return typeof x === "number" && Number.isFinite(x) ? x : null;
}

function str(x: unknown): string | null {
  return typeof x === "string" && x.length > 0 ? x : null;
}

function toError(e: RawTraceError | RawTraceItem): SpanError {
  const issue = e.issue_id;
  return {
    eventId: str(e.event_id),
    issueId: issue === null || issue === undefined ? null : String(issue),
    shortId: str(e.short_id),
    level: str(e.level),
    // The published shape names the title `description`; older servers sent `title`.
    title: str(e.description) ?? str(e.title) ?? "(untitled error)",
  };
}

/**
 * True for a root item that is an error rather than a span: current servers mark it with
 * `event_type` "error" (or "occurrence"); older ones send an item with an issue id but no span id,
 * op or children.
 */
export function isErrorItem(item: RawTraceItem): boolean {
  if (item.event_type === "error" || item.event_type === "occurrence") return true;
  if (item.event_type) return false;
  return item.issue_id != null && !item.span_id && !item.op && (item.children ?? []).length === 0;
}

/** Separates the root items into spans (for the tree) and errors attached to the trace itself. */
export function splitTraceRoots(items: readonly RawTraceItem[]): {
  spans: RawTraceItem[];
  errors: TraceError[];
} {
  const spans: RawTraceItem[] = [];
  const errors: TraceError[] = [];
  for (const item of items) {
    if (!isErrorItem(item)) {
      spans.push(item);
      continue;
    }
    errors.push({
      ...toError(item),
      project: str(item.project_slug) ?? (item.project_id == null ? null : String(item.project_id)),
      culprit: str(item.culprit),
      timestamp: num(item.start_timestamp) ?? num(item.timestamp),
    });
  }
  return { spans, errors };
}

function byStart(a: SpanNode, b: SpanNode): number {
  if (a.startTimestamp === null) return b.startTimestamp === null ? 0 : 1;
  if (b.startTimestamp === null) return -1;
  return a.startTimestamp - b.startTimestamp;
}

/** One item without its children (they are converted on their own, see buildSpanTree). */
function convertOne(item: RawTraceItem, isRoot: boolean, children: SpanNode[]): SpanNode {
  const start = num(item.start_timestamp);
  const end = num(item.end_timestamp) ?? num(item.timestamp);
  const given = num(item.duration);
  const durationMs = given ?? (start !== null && end !== null ? roundMs((end - start) * 1000) : null);
  children.sort(byStart);
  let selfTimeMs: number | null = durationMs;
  if (children.length > 0) {
    if (start !== null && end !== null && durationMs !== null) {
      const spans = children
        .filter((c) => c.startTimestamp !== null && c.timestamp !== null)
        .map((c) => [c.startTimestamp as number, c.timestamp as number] as const);
      selfTimeMs = roundMs(Math.max(0, durationMs - coveredMs(start, end, spans)));
    } else {
      selfTimeMs = null;
    }
  }
  const parentSpanId = str(item.parent_span_id);
  return {
    // Some roots (e.g. error-only or old transaction events) carry only an event id.
    spanId: str(item.span_id) ?? str(item.event_id) ?? "",
    parentSpanId,
    op: str(item.op),
    description: str(item.description) ?? str(item.transaction) ?? str(item.name),
    project: str(item.project_slug) ?? (item.project_id == null ? null : String(item.project_id)),
    startTimestamp: start,
    timestamp: end,
    durationMs,
    selfTimeMs,
    isTransaction: item.is_transaction === true,
    orphan: isRoot && parentSpanId !== null,
    errors: (item.errors ?? []).map(toError),
    children,
  };
}

/** Builds the span tree from the endpoint's root items (orphans arrive as extra roots). */
export function buildSpanTree(items: readonly RawTraceItem[]): SpanNode[] {
  // Post-order with an explicit stack (children before their parent), so depth costs no stack.
  const roots: SpanNode[] = [];
  type Frame = {
    item: RawTraceItem;
    into: SpanNode[];
    children: SpanNode[];
    expanded: boolean;
    root: boolean;
  };
  const stack: Frame[] = [];
  for (let i = items.length - 1; i >= 0; i--) {
    stack.push({ item: items[i] as RawTraceItem, into: roots, children: [], expanded: false, root: true });
  }
  while (stack.length > 0) {
    const f = stack[stack.length - 1] as Frame;
    const kids = f.item.children ?? [];
    if (!f.expanded && kids.length > 0) {
      f.expanded = true;
      for (let i = kids.length - 1; i >= 0; i--) {
        stack.push({
          item: kids[i] as RawTraceItem,
          into: f.children,
          children: [],
          expanded: false,
          root: false,
        });
      }
      continue;
    }
    stack.pop();
    f.into.push(convertOne(f.item, f.root, f.children));
  }
  return roots.sort(byStart);
}

/** Visits every node depth-first (iteratively, so very deep traces cannot overflow the stack). */
export function walkSpans(roots: readonly SpanNode[], visit: (node: SpanNode, depth: number) => void): void {
  const stack: [SpanNode, number][] = roots.map((r) => [r, 0] as [SpanNode, number]).reverse();
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [SpanNode, number];
    visit(node, depth);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push([node.children[i] as SpanNode, depth + 1]);
  }
}

/** Totals of a tree (plus the trace's own errors): span and error counts, overall duration, projects. */
export function summarizeTrace(
  roots: readonly SpanNode[],
  traceErrors: readonly TraceError[] = [],
): TraceSummary {
  let spanCount = 0;
  let errorCount = 0;
  let first: number | null = null;
  let last: number | null = null;
  const projects: string[] = [];
  let depth = 0;
  walkSpans(roots, (n, d) => {
    spanCount++;
    depth = Math.max(depth, d + 1);
    errorCount += n.errors.length;
    if (n.startTimestamp !== null && (first === null || n.startTimestamp < first)) first = n.startTimestamp;
    if (n.timestamp !== null && (last === null || n.timestamp > last)) last = n.timestamp;
    if (n.project && !projects.includes(n.project)) projects.push(n.project);
  });
  errorCount += traceErrors.length;
  for (const e of traceErrors) if (e.project && !projects.includes(e.project)) projects.push(e.project);
  const root = roots.find((r) => !r.orphan) ?? roots[0];
  return {
    spanCount,
    errorCount,
    durationMs: first !== null && last !== null ? roundMs((last - first) * 1000) : null,
    startTimestamp: first,
    projects,
    rootTransaction: root?.description ?? null,
    depth,
  };
}
