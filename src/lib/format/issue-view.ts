/** The `issue view` output: the spec's Issue view JSON and its view. */
import {
  type ApiEvent,
  eventMessage,
  eventTimestamp,
  type StackFrame,
  topInAppFrames,
} from "../api/events.ts";
import { type ApiIssue, type Issue, toIssue } from "../api/issues.ts";
import { type Assignee, assigneeText, statusDetailText } from "./issue-status.ts";
import type { IssueViewExtras } from "../issue/view-extras.ts";
import type { Block, DocView, ViewSection } from "../view/doc.ts";
import { incidentSections } from "./issue-incident.ts";
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

/** `issue view --json` of one issue: the view JSON and what happened around the issue. */
export type IssueViewDoc = IssueViewJson & IssueViewExtras;

const lines = (l: readonly string[]): Block => ({ kind: "lines", lines: l });

/** The summary lines a size bound drops first: Assignee, First seen, Culprit, ID. */
const SECONDARY_FACTS = new Set([1, 5, 7, 9]);

/** The latest event's section: its message, platform and time, then its in-app stack (always kept). */
function latestSection(view: IssueViewJson): ViewSection {
  const e = view.latestEvent;
  if (!e) return { block: lines(["Latest event: none"]) };
  const facts = [
    `  Message:     ${e.message || "-"}`,
    `  Platform:    ${e.platform || "-"}`,
    `  Timestamp:   ${e.timestamp || "-"}`,
  ];
  const stack = e.frames.map((f) => {
    const loc =
      f.lineNo === null ? f.filename : `${f.filename}:${f.lineNo}${f.colNo === null ? "" : `:${f.colNo}`}`;
    return `    at ${f.function} (${loc})`;
  });
  return {
    heading: `Latest event ${e.eventID}`,
    block: lines([
      ...facts,
      ...(stack.length > 0 ? ["", "  Stack (most recent call first):", ...stack] : []),
    ]),
    priority: (i) => (i < facts.length ? 2 : 0),
    label: "latest event",
  };
}

/** One issue's sections: title, summary, tags, latest event, then what happened around it. */
function issueSections(view: IssueViewDoc, now: number): ViewSection[] {
  const seen = (iso: string | null) => (iso ? `${isoSeconds(iso)} (${relativeTime(iso, now)})` : "-");
  const out: ViewSection[] = [
    { block: lines([`${view.shortId}: ${view.title}`]) },
    {
      block: lines([
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
      ]),
      // Under a size bound the assignee, first seen, culprit and numeric ID go before the rest.
      priority: (i) => (SECONDARY_FACTS.has(i) ? 1 : 0),
      label: "details",
    },
  ];
  const m = view.metadata;
  // The title usually says it; the markdown keeps the exception as the service classified it.
  if (m.type || m.value)
    out.push({
      heading: "Exception",
      block: lines([`  ${m.type}: ${m.value}`]),
      markdownOnly: true,
      priority: 1,
      label: "exception",
    });
  const width = Math.max(0, ...view.tags.map((t) => t.key.length));
  out.push({
    heading: "Tags",
    block: lines(view.tags.map((t) => `  ${t.key.padEnd(width)}  ${t.value}`)),
    priority: 6,
    keep: 5,
    label: "tags",
  });
  out.push(latestSection(view), ...incidentSections(view, now));
  return out;
}

/**
 * `issue view <issue>…`: each issue's summary, tags, latest event with its in-app stack, first
 * release and deploys, suspect commits, linked tickets and last notes; several issues one after
 * another under a rule. The document is the issue's view JSON, or the list of them for several.
 */
export const ISSUE_VIEW: DocView<IssueViewDoc | readonly IssueViewDoc[]> = {
  name: "issue view",
  id: "shortId",
  document: (d) => d,
  sections: (d, c) =>
    (Array.isArray(d) ? d : [d]).flatMap((v: IssueViewDoc, i) => [
      ...(i > 0 ? [{ block: lines(["─".repeat(40)]) }] : []),
      ...issueSections(v, c.now),
    ]),
};
