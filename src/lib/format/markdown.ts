/**
 * `--format md`: a command's JSON document as markdown sized for a language model. Each document
 * becomes sections with a priority; `--max-chars` drops the least useful ones first (library
 * frames, older breadcrumbs, extra tags, later rows) and ends with one line saying what was left out.
 */
type Json = unknown;
type Obj = Record<string, Json>;

/** A piece of the markdown and how much it matters (0 = always kept). */
interface Section {
  text: string;
  priority: number;
  /** What the section is, for the "left out" line (e.g. "library frames"). */
  label?: string;
  count?: number;
  /** A group's heading: shown only while an item of its group (same label) remains. */
  heading?: boolean;
}

/** A heading and its items, each item droppable on its own. */
function group(
  out: Section[],
  heading: string,
  label: string,
  items: string[],
  priority: (i: number) => number,
): void {
  if (items.length === 0) return;
  out.push({ text: heading, priority: 0, label, heading: true });
  for (const [i, text] of items.entries()) out.push({ text, priority: priority(i), label, count: 1 });
}

const isObj = (v: Json): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: Json): string =>
  v === null || v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v);
const cell = (v: Json): string => str(v).replace(/\|/g, "\\|").replace(/\s+/g, " ").slice(0, 120);

function table(rows: Obj[], columns: string[]): string {
  const head = `| ${columns.join(" | ")} |\n|${columns.map(() => "---").join("|")}|`;
  return [
    head,
    ...rows.map(
      (r) =>
        `| ${columns.map((c) => cell(c.split(".").reduce<Json>((o, k) => (isObj(o) ? o[k] : undefined), r))).join(" | ")} |`,
    ),
  ].join("\n");
}

/** `key: value` tags; the first five matter, the rest go early under a size bound. */
function tagsGroup(out: Section[], raw: Json): void {
  const tags = Array.isArray(raw) ? (raw as Obj[]) : [];
  group(
    out,
    "### Tags",
    "tags",
    tags.map((t) => `- ${str(t.key)}: ${str(t.value)}`),
    (i) => (i < 5 ? 1 : 6),
  );
}

function listSections(items: Obj[], extra: Obj): Section[] {
  const first = items[0] ?? {};
  const columns =
    "shortId" in first
      ? [
          "shortId",
          "title",
          "level",
          "count",
          "userCount",
          "lastSeen",
          ...("alias" in first ? ["alias"] : []),
        ]
      : "traceId" in first
        ? ["traceId", "transaction", "durationMs", "timestamp", "project"]
        : "eventID" in first
          ? ["eventID", "dateCreated", "title"]
          : "slug" in first
            ? ["slug", "name", ...("platform" in first ? ["platform"] : [])]
            : Object.keys(first)
                .filter((k) => !isObj(first[k]) && !Array.isArray(first[k]))
                .slice(0, 6);
  const out: Section[] = [
    {
      text: `${items.length} item${items.length === 1 ? "" : "s"}${extra.hasMore ? " (more: pass nextCursor)" : ""}`,
      priority: 0,
    },
  ];
  // Rows are their own sections so a size bound drops the last ones first.
  group(
    out,
    table([], columns).trimEnd(),
    "rows",
    items.map((it) => table([it], columns).split("\n")[2] as string),
    (i) => (i < 5 ? 1 : 2 + i),
  );
  if (extra.nextCursor) out.push({ text: `nextCursor: ${str(extra.nextCursor)}`, priority: 0 });
  return out;
}

interface Frame {
  filename?: string;
  function?: string;
  lineNo?: number | null;
  inApp?: boolean;
  context?: [number, string | null][] | null;
}

function eventSections(e: Obj): Section[] {
  const out: Section[] = [{ text: `## Event ${str(e.eventID)}: ${str(e.title)}`, priority: 0 }];
  out.push({ text: `${str(e.dateCreated)} · ${str(e.platform)}`, priority: 0 });
  const entries = Array.isArray(e.entries) ? (e.entries as Obj[]) : [];
  const exc = entries.find((x) => x.type === "exception");
  const values = isObj(exc?.data) && Array.isArray(exc.data.values) ? (exc.data.values as Obj[]) : [];
  if (values.length > 0) {
    out.push({
      text: `### Exception\n${values.map((v) => `- ${str(v.type)}: ${str(v.value)}`).join("\n")}`,
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
      const head = `- \`${f.function ?? "?"}\` at ${f.filename ?? "?"}${f.lineNo ? `:${f.lineNo}` : ""}`;
      const ctx = (f.context ?? []).map(([n, t]) => `    ${n === f.lineNo ? ">" : " "} ${n} | ${t ?? ""}`);
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
    crumbs.map((c) => `- ${str(c.timestamp)} ${str(c.category)}: ${str(c.message)}`),
    (i) => 8 + (crumbs.length - i) / 100,
  );
  if (isObj(e.contexts)) {
    const lines = Object.entries(e.contexts).map(
      ([k, v]) =>
        `- ${k}: ${
          isObj(v)
            ? Object.entries(v)
                .filter(([, x]) => typeof x !== "object")
                .map(([a, x]) => `${a}=${str(x)}`)
                .join(" ")
            : str(v)
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

function issueSections(d: Obj): Section[] {
  const project = isObj(d.project) ? str(d.project.slug) : "";
  const out: Section[] = [
    { text: `## ${str(d.shortId)}: ${str(d.title)}`, priority: 0 },
    {
      text: `${str(d.level)} · ${str(d.status)} · ${str(d.count)} events · ${str(d.userCount)} users · last seen ${str(d.lastSeen)} · ${d.org ? `${str(d.org)}/` : ""}${project} · ${str(d.permalink)}`,
      priority: 0,
    },
  ];
  if (d.culprit) out.push({ text: `Culprit: ${str(d.culprit)}`, priority: 1 });
  if (isObj(d.metadata) && (d.metadata.type || d.metadata.value)) {
    out.push({ text: `### Exception\n- ${str(d.metadata.type)}: ${str(d.metadata.value)}`, priority: 0 });
  }
  const frames = Array.isArray(d.frames) ? (d.frames as Frame[]) : [];
  if (frames.length)
    out.push({
      text: `### In-app frames\n${frames.map((f) => `- \`${f.function}\` at ${f.filename}:${f.lineNo ?? "?"}`).join("\n")}`,
      priority: 0,
    });
  tagsGroup(out, d.tags);
  if (isObj(d.latestEvent)) {
    const e = d.latestEvent;
    out.push({
      text: `### Latest event\n${str(e.eventID)} · ${str(e.timestamp)} · ${str(e.message)}`,
      priority: 2,
    });
  }
  return out;
}

function analysisSections(d: Obj): Section[] {
  if (isObj(d.analysis)) {
    const a = d.analysis;
    return [
      { text: `## Analysis of issue ${str(d.issueId)}`, priority: 0 },
      { text: `### Summary\n${str(a.summary)}`, priority: 0 },
      { text: `### Root cause\n${str(a.rootCause)}`, priority: 0 },
      { text: `### Suggested fix\n${str(a.suggestedFix)}`, priority: 1 },
      { text: `### Affected code\n${str(a.affectedCode)}`, priority: 3, label: "affected code", count: 1 },
    ];
  }
  const plan = d.plan as Obj;
  const steps = Array.isArray(plan.steps) ? (plan.steps as Obj[]) : [];
  return [
    { text: `## Fix plan for issue ${str(d.issueId)} (confidence ${str(plan.confidence)})`, priority: 0 },
    ...steps.map((s, i) => ({
      text: `${i + 1}. ${str(s.action)}${s.file ? ` (${str(s.file)}${s.line ? `:${str(s.line)}` : ""})` : ""}${s.code ? `\n   \`\`\`\n   ${str(s.code).split("\n").join("\n   ")}\n   \`\`\`` : ""}`,
      priority: i < 3 ? 0 : 4 + i,
      label: "plan steps",
      count: 1,
    })),
  ];
}

function traceSections(d: Obj): Section[] {
  const out: Section[] = [
    { text: `## Trace ${str(d.traceId)} (${str(d.org)})`, priority: 0 },
    {
      text: `${str(d.spanCount)} spans · ${str(d.errorCount)} errors · ${str(d.durationMs)} ms`,
      priority: 0,
    },
  ];
  // Depth-first with an explicit stack: a trace may nest tens of thousands of spans.
  const stack: [Obj, number][] = [];
  const pushAll = (spans: Json, depth: number) => {
    if (!Array.isArray(spans)) return;
    for (let i = spans.length - 1; i >= 0; i--) if (isObj(spans[i])) stack.push([spans[i] as Obj, depth]);
  };
  pushAll(d.roots, 0);
  while (stack.length > 0) {
    const [s, depth] = stack.pop() as [Obj, number];
    const errs = Array.isArray(s.errors) && s.errors.length ? ` ⚠ ${s.errors.length} error(s)` : "";
    out.push({
      text: `${"  ".repeat(Math.min(depth, 12))}- ${str(s.op)} ${str(s.description)} (${str(s.durationMs)} ms)${errs}`,
      priority: errs ? 1 : 2 + depth,
      label: "spans",
      count: 1,
    });
    pushAll(s.children, depth + 1);
  }
  return out;
}

function sectionsOf(doc: Json): Section[] {
  if (Array.isArray(doc)) return listSections(doc.filter(isObj), {});
  if (!isObj(doc)) return [{ text: str(doc), priority: 0 }];
  if (Array.isArray(doc.data)) return listSections((doc.data as Json[]).filter(isObj), doc);
  if ("eventID" in doc && "entries" in doc) return eventSections(doc);
  if ("shortId" in doc && "title" in doc) return issueSections(doc);
  if ("issueId" in doc && ("analysis" in doc || "plan" in doc)) return analysisSections(doc);
  if ("traceId" in doc && "roots" in doc) return traceSections(doc);
  return [{ text: `\`\`\`json\n${JSON.stringify(doc, null, 2)}\n\`\`\``, priority: 0 }];
}

function join(sections: readonly Section[]): string {
  return sections
    .map((s) => s.text)
    .join("\n")
    .replace(/\n(#{2,3} )/g, "\n\n$1");
}

/** Renders a document as markdown, within `maxChars` when given. */
export function renderMarkdown(doc: Json, maxChars?: number): string {
  let sections = sectionsOf(doc);
  if (maxChars === undefined || join(sections).length <= maxChars) return join(sections);
  const left: Record<string, number> = {};
  const order = sections
    .map((s, i) => ({ s, i }))
    .filter((x) => x.s.priority > 0)
    .sort((a, b) => b.s.priority - a.s.priority || b.i - a.i);
  const note = () =>
    `\n\n_Left out to fit ${maxChars} characters: ${Object.entries(left)
      .map(([k, n]) => `${n} ${k}`)
      .join(", ")}._`;
  // The length is kept up to date as sections go (re-joining each time was quadratic: a trace
  // of 20,000 spans took 20 s); the final check below trims to the exact bound either way.
  let length = join(sections).length;
  const dropped = new Set<Section>();
  for (const { s } of order) {
    if (length + note().length <= maxChars) break;
    dropped.add(s);
    length -=
      s.text.length + 1 + (/^#{2,3} /.test(s.text) ? 1 : 0) + (s.text.match(/\n#{2,3} /g)?.length ?? 0);
    const label = s.label ?? "details";
    left[label] = (left[label] ?? 0) + (s.count ?? 1);
  }
  sections = sections.filter((x) => !dropped.has(x));
  const kept = new Set(sections.filter((x) => !x.heading).map((x) => x.label));
  sections = sections.filter((x) => !x.heading || kept.has(x.label));
  let text = join(sections);
  if (text.length + note().length > maxChars) {
    const keep = Math.max(0, maxChars - note().length - 30);
    left["characters"] = (left["characters"] ?? 0) + (text.length - keep);
    text = `${text.slice(0, keep)}…`;
  }
  return `${text}${Object.keys(left).length ? note() : ""}`;
}
