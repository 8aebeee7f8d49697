/**
 * `--format md` sections of single documents: an event, an issue, an AI analysis or plan, a trace.
 */
import { COLLAPSE_RUN_MIN, normalizeDescription } from "../trace/collapse.ts";
import { assigneeText, statusDetailText } from "./issue-status.ts";
import { incidentSections } from "./markdown-incident.ts";
import {
  block,
  group,
  isObj,
  type Json,
  line,
  type Obj,
  type Section,
  str,
  tagsGroup,
} from "./markdown-parts.ts";
import { traceLogsGroup } from "./markdown-lists.ts";

interface Frame {
  filename?: string;
  function?: string;
  lineNo?: number | null;
  inApp?: boolean;
  context?: [number, string | null][] | null;
}

export function eventSections(e: Obj): Section[] {
  const out: Section[] = [{ text: `## Event ${line(e.eventID)}: ${line(e.title)}`, priority: 0 }];
  out.push({ text: `${line(e.dateCreated)} · ${line(e.platform)}`, priority: 0 });
  const entries = Array.isArray(e.entries) ? (e.entries as Obj[]) : [];
  const exc = entries.find((x) => x.type === "exception");
  const values = isObj(exc?.data) && Array.isArray(exc.data.values) ? (exc.data.values as Obj[]) : [];
  if (values.length > 0) {
    out.push({
      text: `### Exception\n${values.map((v) => `- ${line(v.type)}: ${line(v.value)}`).join("\n")}`,
      priority: 0,
    });
    const last = values[values.length - 1] as Obj;
    const frames = (
      isObj(last.stacktrace) && Array.isArray(last.stacktrace.frames)
        ? (last.stacktrace.frames as Frame[])
        : []
    )
      .slice()
      .reverse();
    const fmt = (f: Frame) => {
      const head = `- \`${line(f.function ?? "?")}\` at ${line(f.filename ?? "?")}${f.lineNo ? `:${f.lineNo}` : ""}`;
      const ctx = (f.context ?? []).map(
        ([n, t]) => `    ${n === f.lineNo ? ">" : " "} ${n} | ${line(t ?? "")}`,
      );
      return [head, ...ctx].join("\n");
    };
    const inApp = frames.filter((f) => f.inApp);
    const lib = frames.filter((f) => !f.inApp);
    if (inApp.length > 0)
      out.push({ text: `### In-app frames (most recent first)\n${inApp.map(fmt).join("\n")}`, priority: 0 });
    group(out, "### Library frames", "library frames", lib.map(fmt), () => 10);
  }
  tagsGroup(out, e.tags);
  const crumbEntry = entries.find((x) => x.type === "breadcrumbs");
  const crumbs =
    isObj(crumbEntry?.data) && Array.isArray(crumbEntry.data.values)
      ? (crumbEntry.data.values as Obj[]).slice(-20)
      : [];
  group(
    out,
    "### Last breadcrumbs",
    "breadcrumbs",
    crumbs.map((c) => `- ${line(c.timestamp)} ${line(c.category)}: ${line(c.message)}`),
    (i) => 8 + (crumbs.length - i) / 100,
  );
  if (isObj(e.contexts)) {
    const lines = Object.entries(e.contexts).map(
      ([k, v]) =>
        `- ${line(k)}: ${
          isObj(v)
            ? Object.entries(v)
                .filter(([, x]) => typeof x !== "object")
                .map(([a, x]) => `${line(a)}=${line(x)}`)
                .join(" ")
            : line(v)
        }`,
    );
    if (lines.length)
      out.push({
        text: `### Contexts\n${lines.join("\n")}`,
        priority: 7,
        label: "contexts",
        count: lines.length,
      });
  }
  return out;
}

export function issueSections(d: Obj): Section[] {
  const project = isObj(d.project) ? line(d.project.slug) : "";
  const out: Section[] = [
    { text: `## ${line(d.shortId)}: ${line(d.title)}`, priority: 0 },
    {
      text: `${line(d.level)} · ${line(d.status)} · ${line(d.count)} events · ${line(d.userCount)} users · last seen ${line(d.lastSeen)} · ${d.org ? `${line(d.org)}/` : ""}${project} · ${line(d.permalink)}`,
      priority: 0,
    },
  ];
  const status = statusDetailText(str(d.status), d.statusDetails);
  const assignee = "assignedTo" in d ? assigneeText(d.assignedTo) : undefined;
  const state = [status ? `Status: ${line(status)}` : "", assignee ? `Assignee: ${line(assignee)}` : ""];
  if (state.some(Boolean)) out.push({ text: state.filter(Boolean).join(" · "), priority: 0 });
  if (d.culprit) out.push({ text: `Culprit: ${line(d.culprit)}`, priority: 1 });
  if (isObj(d.metadata) && (d.metadata.type || d.metadata.value)) {
    out.push({ text: `### Exception\n- ${line(d.metadata.type)}: ${line(d.metadata.value)}`, priority: 0 });
  }
  // The in-app frames are the latest event's (issue view --json: latestEvent.frames).
  const latest = isObj(d.latestEvent) ? d.latestEvent : undefined;
  const source = Array.isArray(latest?.frames) ? latest.frames : d.frames;
  const frames = Array.isArray(source) ? (source as Frame[]) : [];
  if (frames.length)
    out.push({
      text: `### In-app frames\n${frames.map((f) => `- \`${line(f.function ?? "?")}\` at ${line(f.filename ?? "?")}:${f.lineNo ?? "?"}`).join("\n")}`,
      priority: 0,
    });
  tagsGroup(out, d.tags);
  out.push(...incidentSections(d));
  if (latest) {
    out.push({
      text: `### Latest event\n${line(latest.eventID)} · ${line(latest.timestamp)} · ${line(latest.message)}`,
      priority: 2,
    });
  }
  return out;
}

export function analysisSections(d: Obj): Section[] {
  if (isObj(d.analysis)) {
    const a = d.analysis;
    return [
      { text: `## Analysis of issue ${line(d.issueId)}`, priority: 0 },
      { text: `### Summary\n${block(a.summary)}`, priority: 0 },
      { text: `### Root cause\n${block(a.rootCause)}`, priority: 0 },
      { text: `### Suggested fix\n${block(a.suggestedFix)}`, priority: 1 },
      { text: `### Affected code\n${block(a.affectedCode)}`, priority: 3, label: "affected code", count: 1 },
    ];
  }
  const plan = d.plan as Obj;
  const steps = Array.isArray(plan.steps) ? (plan.steps as Obj[]) : [];
  return [
    { text: `## Fix plan for issue ${line(d.issueId)} (confidence ${line(plan.confidence)})`, priority: 0 },
    ...steps.map((s, i) => ({
      text: `${i + 1}. ${line(s.action)}${s.file ? ` (${line(s.file)}${s.line ? `:${line(s.line)}` : ""})` : ""}${s.code ? `\n   \`\`\`\n   ${block(s.code).split("\n").join("\n   ")}\n   \`\`\`` : ""}`,
      priority: i < 3 ? 0 : 4 + i,
      label: "plan steps",
      count: 1,
    })),
  ];
}

/** Consecutive sibling spans of one kind (same op, project and description but for numbers). */
function sameKind(a: Obj, b: Obj): boolean {
  const desc = (x: Obj) => normalizeDescription(typeof x.description === "string" ? x.description : null);
  return a.op === b.op && a.project === b.project && desc(a) === desc(b);
}

/** Siblings with runs of COLLAPSE_RUN_MIN or more similar spans as one entry, as the text view shows them. */
function siblingRuns(spans: Obj[]): Obj[][] {
  const out: Obj[][] = [];
  let i = 0;
  while (i < spans.length) {
    let j = i + 1;
    while (j < spans.length && sameKind(spans[i] as Obj, spans[j] as Obj)) j++;
    if (j - i >= COLLAPSE_RUN_MIN) out.push(spans.slice(i, j));
    else for (let k = i; k < j; k++) out.push([spans[k] as Obj]);
    i = j;
  }
  return out;
}

function errorCount(s: Obj): number {
  return Array.isArray(s.errors) ? s.errors.length : 0;
}

export function traceSections(d: Obj): Section[] {
  const out: Section[] = [
    { text: `## Trace ${line(d.traceId)} (${line(d.org)})`, priority: 0 },
    {
      text: `${line(d.spanCount)} spans · ${line(d.errorCount)} errors · ${line(d.durationMs)} ms`,
      priority: 0,
    },
  ];
  // Depth-first with an explicit stack: a trace may nest tens of thousands of spans.
  const stack: [Obj[], number][] = [];
  const pushAll = (spans: Json, depth: number) => {
    if (!Array.isArray(spans)) return;
    const runs = siblingRuns(spans.filter(isObj));
    for (let i = runs.length - 1; i >= 0; i--) stack.push([runs[i] as Obj[], depth]);
  };
  pushAll(d.roots, 0);
  while (stack.length > 0) {
    const [run, depth] = stack.pop() as [Obj[], number];
    const s = run[0] as Obj;
    const errors = run.reduce((n, x) => n + errorCount(x), 0);
    const errs = errors ? ` ⚠ ${errors} error(s)` : "";
    const indent = "  ".repeat(Math.min(depth, 12));
    const total = run.reduce((n, x) => n + (typeof x.durationMs === "number" ? x.durationMs : 0), 0);
    const text =
      run.length === 1
        ? `${indent}- ${line(s.op)} ${line(s.description)} (${line(s.durationMs)} ms)${errs}`
        : `${indent}- ${line(s.op)} ${line(s.description)} ×${run.length} (${Math.round(total * 100) / 100} ms in all)${errs}`;
    out.push({ text, priority: errs ? 1 : 2 + depth, label: "spans", count: run.length });
    // A collapsed run is one line, like the text view; a single span shows its children.
    if (run.length === 1) pushAll(s.children, depth + 1);
  }
  if ("logs" in d) traceLogsGroup(out, d.logs);
  return out;
}
