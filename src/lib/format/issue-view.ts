/** The `issue view` output: the spec's Issue view JSON and the human rendering. */
import {
  type ApiEvent,
  eventMessage,
  eventTimestamp,
  type StackFrame,
  topInAppFrames,
} from "../api/events.ts";
import { type ApiIssue, type Issue, toIssue } from "../api/issues.ts";
import { type Assignee, assigneeText, statusDetailText } from "./issue-status.ts";
import { isoSeconds, relativeTime } from "./time.ts";

/** The spec's Issue view JSON (section 2) plus the list fields. */
export interface IssueViewJson extends Issue {
  /** The organization's slug (the issue's own project carries only the project). */
  org: string;
  /** Who the issue is assigned to (Sentry's `assignedTo`: a user or a team); null when nobody. */
  assignedTo: Assignee | null;
  /** Sentry's `statusDetails`: what resolved the issue or what its archive waits for; `{}` when nothing. */
  statusDetails: Record<string, unknown>;
  metadata: { type: string; value: string; filename: string; function: string };
  tags: { key: string; value: string }[];
  latestEvent: {
    eventID: string;
    message: string;
    platform: string;
    timestamp: string;
    /** The stack the human view shows: the top in-app frames, crashing frame first. */
    frames: StackFrame[];
  } | null;
}

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/** Builds the view JSON; `tags` are the latest event's key/value pairs (the issue's own are summaries). */
export function toIssueViewJson(issue: ApiIssue, event: ApiEvent | null, org: string): IssueViewJson {
  const m = issue.metadata ?? {};
  return {
    ...toIssue(issue),
    org,
    assignedTo: issue.assignedTo ?? null,
    statusDetails: issue.statusDetails ?? {},
    metadata: {
      type: str(m.type),
      value: str(m.value),
      filename: str(m.filename),
      function: str(m.function),
    },
    tags: (event?.tags ?? []).map((t) => ({ key: t.key, value: t.value ?? "" })),
    latestEvent: event
      ? {
          eventID: event.eventID,
          message: eventMessage(event),
          platform: event.platform ?? "",
          timestamp: eventTimestamp(event),
          frames: topInAppFrames(event),
        }
      : null,
  };
}

/** The status and what it means: `resolved in 1.2.3`, `ignored: archived until it escalates`. */
function statusLine(view: IssueViewJson): string {
  const detail = statusDetailText(view.status, view.statusDetails);
  if (!detail) return view.status;
  return detail.startsWith(view.status) ? detail : `${view.status}: ${detail}`;
}

/** Renders the human view of an issue and its latest event. */
export function formatIssueView(view: IssueViewJson, now: number): string[] {
  const seen = (iso: string | null) => (iso ? `${isoSeconds(iso)} (${relativeTime(iso, now)})` : "-");
  const lines = [
    `${view.shortId}: ${view.title}`,
    "",
    `  Status:      ${statusLine(view)}${view.isUnhandled ? " (unhandled)" : ""}`,
    `  Assignee:    ${assigneeText(view.assignedTo) ?? "-"}`,
    `  Level:       ${view.level}`,
    `  Events:      ${view.count}`,
    `  Users:       ${view.userCount}`,
    `  First seen:  ${seen(view.firstSeen)}`,
    `  Last seen:   ${seen(view.lastSeen)}`,
    `  Culprit:     ${view.culprit || "-"}`,
    `  Project:     ${view.org}/${view.project.slug}`,
    `  ID:          ${view.id}`,
    `  Link:        ${view.permalink || "-"}`,
  ];
  if (view.tags.length > 0) {
    lines.push("", "Tags");
    const width = Math.max(...view.tags.map((t) => t.key.length));
    for (const t of view.tags) lines.push(`  ${t.key.padEnd(width)}  ${t.value}`);
  }
  if (!view.latestEvent) {
    lines.push("", "Latest event: none");
    return lines;
  }
  const e = view.latestEvent;
  lines.push(
    "",
    `Latest event ${e.eventID}`,
    `  Message:     ${e.message || "-"}`,
    `  Platform:    ${e.platform || "-"}`,
    `  Timestamp:   ${e.timestamp || "-"}`,
  );
  const frames = e.frames;
  if (frames.length > 0) {
    lines.push("", "  Stack (most recent call first):");
    for (const f of frames) {
      const loc =
        f.lineNo === null ? f.filename : `${f.filename}:${f.lineNo}${f.colNo === null ? "" : `:${f.colNo}`}`;
      lines.push(`    at ${f.function} (${loc})`);
    }
  }
  return lines;
}
