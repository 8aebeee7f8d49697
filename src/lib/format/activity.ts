/**
 * An issue's activity (API.md §22.4) as rows: when, who, what. `summary` is one line of plain
 * words for every activity type Sentry sends; unknown types show their type name.
 */
import type { Activity } from "../api/activity.ts";
import { oneLine } from "./one-line.ts";
import { type DocView, tableBlock } from "../view/doc.ts";
import { type ListView, viewLines } from "../view/list.ts";
import { listTime } from "./time.ts";

/** One activity item as `issue activity --json` prints it. */
export interface ActivityRow {
  dateCreated: string;
  type: string;
  /** Who did it (name, else username or email); null when Sentry itself did. */
  user: string | null;
  summary: string;
  id: string;
  data: Record<string, unknown>;
}

const text = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");

/** The words of one activity item: `note: …`, `resolved in web@1.5.0`, `assigned to Bob Stone`. */
export function activitySummary(a: Activity): string {
  const d = a.data ?? {};
  const version = text(d.version);
  switch (a.type) {
    case "note":
      return `note: ${oneLine(text(d.text))}`;
    case "set_resolved":
      return "resolved";
    case "set_resolved_in_release":
      return version ? `resolved in ${version}` : "resolved in the next release";
    case "set_resolved_in_commit":
    case "set_resolved_by_age":
      return a.type === "set_resolved_by_age" ? "resolved (no events for a while)" : "resolved in a commit";
    case "set_unresolved":
      return "reopened";
    case "set_ignored":
      return "archived";
    case "set_regression":
      return version ? `regressed in ${version}` : "regressed";
    case "assigned":
      return `assigned to ${oneLine(text(d.assigneeName) || text(d.assigneeEmail) || text(d.assignee) || "someone")}`;
    case "unassigned":
      return "unassigned";
    case "merge": {
      const n = Array.isArray(d.issues) ? d.issues.length : 0;
      return `merged ${n} issue${n === 1 ? "" : "s"} into this one`;
    }
    case "create_issue":
      return `linked ${oneLine(text(d.label) || text(d.location) || text(d.title))}${d.provider ? ` (${oneLine(text(d.provider))})` : ""}`;
    case "first_seen":
      return "first seen";
    default:
      return a.type.replace(/_/g, " ");
  }
}

/** Who did it: the user's name, username or email, a Sentry app's name, else null (Sentry). */
export function activityUser(a: Activity): string | null {
  const u = a.user;
  const name = u?.name || u?.username || u?.email || a.sentry_app?.name || "";
  return name === "" ? null : name;
}

/** The JSON rows of an activity list (order kept: newest first). */
export function toActivityRows(items: readonly Activity[]): ActivityRow[] {
  return items.map((a) => ({
    dateCreated: a.dateCreated,
    type: a.type,
    user: activityUser(a),
    summary: activitySummary(a),
    id: String(a.id),
    data: a.data ?? {},
  }));
}

/** What `issue activity` shows (its `--json`): the issue's short ID and its activity, newest first. */
export interface ActivityDoc {
  issue: string;
  data: ActivityRow[];
}

/** The activity rows: WHEN, WHO, WHAT (the flex column). */
export const ISSUE_ACTIVITY_TABLE: ListView<ActivityRow> = {
  name: "issue activity rows",
  partOf: "issue activity",
  id: "id",
  document: (r) => r,
  columns: () => [
    { header: "When", cell: (r, c) => listTime(r.dateCreated, c.now, c.tty) },
    { header: "Who", cell: (r) => oneLine(r.user ?? "Sentry") },
    { header: "What", flex: true, cell: (r) => r.summary },
  ],
};

/** The line above the rows (on a terminal; a tip when piped). */
export function activityTitle(d: ActivityDoc): string {
  return `Activity of ${d.issue} (newest first)`;
}

/** `issue activity`: the title, then the rows; piped, the rows alone. */
export const ISSUE_ACTIVITY_VIEW: DocView<ActivityDoc> = {
  name: "issue activity",
  id: "issue",
  document: (d) => d,
  sections: (d) => [
    { block: { kind: "lines", lines: [activityTitle(d)] } },
    {
      block: tableBlock(ISSUE_ACTIVITY_TABLE, d.data, undefined),
      priority: 2,
      keep: 5,
      label: "activity",
    },
  ],
  piped: (d, c) => viewLines(ISSUE_ACTIVITY_TABLE, d.data, undefined, c),
};
