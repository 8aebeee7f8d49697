/** The human span tree of `trace view`. */
import { isoFromMs } from "./time.ts";
import {
  COLLAPSE_RUN_MIN,
  groupSiblings,
  normalizeDescription,
  type SiblingEntry,
} from "../trace/collapse.ts";
import { type SpanNode, type TraceError, type TraceSummary, walkSpans } from "../trace/span-tree.ts";
import { formatDuration } from "./duration.ts";
import { truncate } from "./table.ts";
import { paint } from "../style.ts";
import { oneLine } from "./one-line.ts";

/** Indentation stops growing at this depth; deeper spans are labelled with their depth instead. */
export const MAX_INDENT_DEPTH = 12;

/** What formatTraceTree renders. */
export interface TraceView {
  traceId: string;
  org: string;
  roots: readonly SpanNode[];
  /** Errors of the trace whose span is not in it. */
  errors?: readonly TraceError[];
  summary: TraceSummary;
}

/** Options of formatTraceTree. */
export interface TraceTreeOptions {
  /** Terminal width when stdout is a TTY (long lines are cut); undefined when piped. */
  width?: number;
  color?: boolean;
  /** Consecutive identical siblings collapsed from this many on. */
  collapseMin?: number;
}

const COL = 8;
const red = (s: string) => paint(s, "31", "39");
const dim = (s: string) => paint(s, "2", "22");

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function errorMarker(errors: SpanNode["errors"]): string {
  const first = errors[0];
  if (!first) return "";
  return `  ✖ ${oneLine(first.title)}${errors.length > 1 ? ` (+${errors.length - 1} more)` : ""}`;
}

function label(n: SpanNode, parentProject: string | null): string {
  let text = oneLine(n.op ?? "(no op)");
  if (n.description && n.description !== n.op) text += `  ${oneLine(n.description)}`;
  if (n.project && n.project !== parentProject) text += `  [${oneLine(n.project)}]`;
  if (n.orphan) text += `  (parent ${n.parentSpanId} not in trace)`;
  return text;
}

function countDescendants(nodes: readonly SpanNode[]): number {
  let count = 0;
  walkSpans(
    nodes.flatMap((n) => n.children),
    () => count++,
  );
  return count;
}

function runLabel(nodes: readonly SpanNode[], parentProject: string | null, more: boolean): string {
  const first = nodes[0] as SpanNode;
  const durations = nodes.map((n) => n.durationMs).filter((d): d is number => d !== null);
  const same = nodes.every((n) => n.description === first.description);
  const shown = {
    ...first,
    orphan: false,
    description: same ? first.description : normalizeDescription(first.description),
  };
  let text = `${label(shown, parentProject)}  ×${nodes.length}${more ? " more like it" : ""}`;
  if (durations.length > 0) {
    const lo = formatDuration(Math.min(...durations));
    const hi = formatDuration(Math.max(...durations));
    text += lo === hi ? ` (${lo} each)` : ` (${lo}–${hi} each)`;
  }
  const hidden = countDescendants(nodes);
  if (hidden > 0) text += ` (+${plural(hidden, "nested span")} hidden)`;
  return text;
}

interface Frame {
  entry: SiblingEntry;
  /** A run that follows its first member, which is shown expanded as an example. */
  more: boolean;
  depth: number;
  guide: string;
  last: boolean;
  parentProject: string | null;
}

function pushEntries(
  stack: Frame[],
  nodes: readonly SpanNode[],
  depth: number,
  guide: string,
  parentProject: string | null,
  min: number,
): void {
  // A run of spans with children shows its first member in full, then one line for the rest.
  const entries = groupSiblings(nodes, min).flatMap((e): { entry: SiblingEntry; more: boolean }[] =>
    e.kind === "run" && e.nodes.some((n) => n.children.length > 0)
      ? [
          { entry: { kind: "span", node: e.nodes[0] as SpanNode }, more: false },
          { entry: { kind: "run", nodes: e.nodes.slice(1) }, more: true },
        ]
      : [{ entry: e, more: false }],
  );
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i] as { entry: SiblingEntry; more: boolean };
    stack.push({ ...e, depth, guide, last: i === entries.length - 1, parentProject });
  }
}

/** One line of the span tree before it is cut or painted: a span, or a run of similar ones. */
export interface SpanLine {
  text: string;
  /** The span's depth in the tree (0 for a root). */
  depth: number;
  /** Errors on the span (or on the members of the run). */
  errors: number;
}

/** The header of the span lines. */
export const SPAN_LINES_HEADER = `${"DURATION".padStart(COL)}  ${"SELF".padStart(COL)}  SPAN`;

/** The span tree line by line: DURATION and SELF columns, then the tree with `├─`/`└─` guides. */
export function spanLineEntries(roots: readonly SpanNode[], collapseMin = COLLAPSE_RUN_MIN): SpanLine[] {
  const lines: SpanLine[] = [];
  const stack: Frame[] = [];
  pushEntries(stack, roots, 0, "", null, collapseMin);
  while (stack.length > 0) {
    const f = stack.pop() as Frame;
    let prefix = "";
    if (f.depth > 0) {
      prefix = f.guide + (f.last ? "└─ " : "├─ ");
      if (f.depth > MAX_INDENT_DEPTH) prefix += `[depth ${f.depth}] `;
    }
    let dur: string;
    let self = "";
    let text: string;
    let errors: SpanNode["errors"];
    if (f.entry.kind === "run") {
      const nodes = f.entry.nodes;
      const total = nodes.reduce((sum, n) => sum + (n.durationMs ?? 0), 0);
      dur = formatDuration(total);
      text = runLabel(nodes, f.parentProject, f.more);
      errors = nodes.flatMap((n) => n.errors);
      if (errors.length > 0) text += `  ✖ ${plural(errors.length, "error")}`;
    } else {
      const n = f.entry.node;
      dur = formatDuration(n.durationMs);
      if (n.children.length > 0 && n.selfTimeMs !== null) self = formatDuration(n.selfTimeMs);
      text = label(n, f.parentProject) + errorMarker(n.errors);
      errors = n.errors;
      const childGuide =
        f.depth === 0 ? "" : f.depth >= MAX_INDENT_DEPTH ? f.guide : f.guide + (f.last ? "   " : "│  ");
      pushEntries(stack, n.children, f.depth + 1, childGuide, n.project, collapseMin);
    }
    lines.push({
      text: `${dur.padStart(COL)}  ${self.padStart(COL)}  ${prefix}${text}`,
      depth: f.depth,
      errors: errors.length,
    });
  }
  return lines;
}

/** A line for a terminal of `width` (cut) with colour (red when it carries errors). */
export function fitLine(line: string, opts: TraceTreeOptions, error = false): string {
  const cut = opts.width !== undefined ? truncate(line, opts.width) : line;
  return opts.color && error ? red(cut) : cut;
}

/** The span lines: DURATION and SELF columns, then the tree with `├─`/`└─` guides. */
export function formatSpanLines(roots: readonly SpanNode[], opts: TraceTreeOptions = {}): string[] {
  return [
    SPAN_LINES_HEADER,
    ...spanLineEntries(roots, opts.collapseMin).map((l) => fitLine(l.text, opts, l.errors > 0)),
  ];
}

/** The title of a trace: its id and org, its totals, and when it started (lines not yet cut). */
export function traceTitleLines(view: TraceView): string[] {
  const s = view.summary;
  const facts = [
    s.rootTransaction ?? "(no transaction)",
    formatDuration(s.durationMs),
    plural(s.spanCount, "span"),
    plural(s.errorCount, "error"),
  ];
  if (s.projects.length > 0) facts.push(`projects: ${s.projects.join(", ")}`);
  const header = [`Trace ${view.traceId} (${view.org})`, oneLine(facts.join(" · "))];
  if (s.startTimestamp !== null) {
    const started = isoFromMs(Math.round(s.startTimestamp * 1000));
    header.push(
      `Started ${started ? `${started.slice(0, 19)}Z` : "- (the trace's start time is not a valid time)"}`,
    );
  }
  return header;
}

/** The title as a terminal shows it: each line cut to the width, the totals dimmed. */
export function fitTitleLines(view: TraceView, opts: TraceTreeOptions): string[] {
  const lines = traceTitleLines(view).map((l) => fitLine(l, opts));
  if (opts.color) lines[1] = dim(lines[1] as string);
  return lines;
}

/** One line per error of the trace: on its span, then those whose span is not in the trace. */
export function traceErrorLines(view: TraceView): string[] {
  const errorLines: string[] = [];
  walkSpans(view.roots, (n) => {
    for (const e of n.errors) {
      const where = [`span ${n.spanId}`, n.op ?? undefined, e.issueId ? `issue ${e.issueId}` : undefined];
      const level = e.level && e.level !== "error" ? `[${e.level}] ` : "";
      errorLines.push(oneLine(`  ✖ ${level}${e.title}  (${where.filter(Boolean).join(", ")})`));
    }
  });
  for (const e of view.errors ?? []) {
    const where = [
      "span not in the trace",
      e.project ?? undefined,
      e.issueId ? `issue ${e.issueId}` : undefined,
    ];
    const level = e.level && e.level !== "error" ? `[${e.level}] ` : "";
    errorLines.push(oneLine(`  ✖ ${level}${e.title}  (${where.filter(Boolean).join(", ")})`));
  }
  return errorLines;
}

/** The whole `trace view` text: a header with totals, the span tree, then the list of errors. */
export function formatTraceTree(view: TraceView, opts: TraceTreeOptions = {}): string[] {
  const lines = [...fitTitleLines(view, opts), "", ...formatSpanLines(view.roots, opts)];
  const errorLines = traceErrorLines(view);
  if (errorLines.length > 0) lines.push("", "Errors:", ...errorLines.map((l) => fitLine(l, opts, true)));
  return lines;
}
