/**
 * Markdown views of documents that are lists of lists, which the generic list table would flatten
 * to their scalar columns and so lose what the view is for: `status` (each organization's three
 * issue sections), `issue tags` without a key (each key's top values and shares), and the logs of
 * `trace view --logs`. Each carries the facts of the text view.
 */
import { sharePercent } from "./issue-tags.ts";
import { group, isObj, type Json, line, type Obj, type Section, table } from "./markdown-parts.ts";

const PLATE_SECTIONS = [
  ["assigned", "Assigned to you or your teams"],
  ["regressed", "Regressed"],
  ["new", "New"],
] as const;

/** True for the `status` document: `data` holds organizations with their three sections. */
export function isStatusDocument(doc: Obj): boolean {
  const first = Array.isArray(doc.data) ? doc.data[0] : undefined;
  return isObj(first) && "assigned" in first && "regressed" in first && "new" in first;
}

/** `status`: a heading per organization, then each section's issues (ID, title, events, last seen). */
export function statusSections(doc: Obj): Section[] {
  const out: Section[] = [];
  for (const plate of (doc.data as Json[]).filter(isObj)) {
    out.push({ text: `## ${line(plate.org)}`, priority: 0 });
    for (const [key, title] of PLATE_SECTIONS) {
      const list = isObj(plate[key]) ? (plate[key] as Obj) : {};
      const issues = Array.isArray(list.issues) ? list.issues.filter(isObj) : [];
      const total =
        typeof list.total === "number" && list.total > issues.length
          ? ` (${issues.length} of ${list.total})`
          : "";
      const since = key === "new" ? ` since ${line(plate.since)}` : "";
      if (issues.length === 0) {
        out.push({ text: `### ${title}${since}: none`, priority: 0 });
        continue;
      }
      const columns = ["shortId", "title", "count", "lastSeen"];
      group(
        out,
        `### ${title}${since}${total}\n${table([], columns)}`,
        `${key} issues`,
        issues.map((i) => table([i], columns).split("\n")[2] as string),
        (i) => (i < 3 ? 1 : 2 + i),
      );
    }
  }
  if (Array.isArray(doc.errors))
    for (const e of doc.errors.filter(isObj))
      out.push({ text: `_Could not read ${line(e.org)}: ${line(e.message)}_`, priority: 0 });
  return out;
}

/** True for `issue tags` without a key: an array of keys with their top values. */
export function isTagKeyList(doc: Json): doc is Obj[] {
  return Array.isArray(doc) && isObj(doc[0]) && "topValues" in doc[0] && "key" in doc[0];
}

/** `issue tags`: one line per key with each top value and its share (`production 82%`). */
export function tagKeySections(tags: Obj[]): Section[] {
  const out: Section[] = [{ text: `${tags.length} tag key${tags.length === 1 ? "" : "s"}`, priority: 0 }];
  group(
    out,
    "### Tags",
    "tag keys",
    tags.map((t) => {
      const total = typeof t.totalValues === "number" ? t.totalValues : undefined;
      const values = (Array.isArray(t.topValues) ? t.topValues.filter(isObj) : []).map(
        (v) =>
          `${line(v.value ?? "(empty)")} ${sharePercent(typeof v.count === "number" ? v.count : 0, total)} (${line(v.count)})`,
      );
      return `- **${line(t.key)}**: ${values.join(" · ") || "-"}`;
    }),
    (i) => (i < 5 ? 1 : 2 + i),
  );
  return out;
}

/** The logs of a trace (`trace view --logs`): time, severity, message, span and log id, oldest first. */
export function traceLogsGroup(out: Section[], logs: Json): void {
  const rows = Array.isArray(logs) ? logs.filter(isObj) : [];
  if (rows.length === 0) {
    out.push({ text: "### Logs: none", priority: 0 });
    return;
  }
  group(
    out,
    `### Logs (${rows.length})`,
    "logs",
    rows.map(
      (l) =>
        `- ${line(l.timestamp)} ${line(l.severity)} ${line(l.message)} (span ${line(l.span_id ?? l.spanId ?? "-")}, log ${line(l["sentry.item_id"] ?? l.id)})`,
    ),
    (i) => 2 + i,
  );
}
