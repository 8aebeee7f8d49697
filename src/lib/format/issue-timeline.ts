/** The `issue timeline` view: what happened to an issue and its project, oldest first. */
import type { Timeline, TimelineEntry } from "../issue/timeline.ts";
import { type DocView, tableBlock } from "../view/doc.ts";
import { type ListView, viewLines } from "../view/list.ts";
import { oneLine } from "./one-line.ts";
import { isoSeconds } from "./time.ts";

/** The entries: WHEN (RFC 3339 everywhere: a timeline is read by its dates), WHAT, WHO, DETAIL. */
export const ISSUE_TIMELINE_TABLE: ListView<TimelineEntry> = {
  name: "issue timeline entries",
  partOf: "issue timeline",
  id: "date",
  document: (e) => e,
  columns: () => [
    { header: "When", cell: (e) => isoSeconds(e.date) },
    { header: "What", cell: (e) => e.kind },
    { header: "Who", cell: (e) => oneLine(e.user ?? "-") },
    { header: "Detail", flex: true, cell: (e) => e.summary },
  ],
};

/** The line above the entries (on a terminal; a tip when piped). */
export function timelineTitle(t: Timeline): string {
  return `Timeline of ${t.issue} (${t.project}), oldest first`;
}

/** `issue timeline`: the title, then the entries; piped, the entries alone. */
export const ISSUE_TIMELINE_VIEW: DocView<Timeline> = {
  name: "issue timeline",
  id: "issue",
  document: (t) => t,
  sections: (t) => [
    { block: { kind: "lines", lines: [timelineTitle(t)] } },
    {
      block: tableBlock(ISSUE_TIMELINE_TABLE, t.data, undefined),
      priority: 2,
      keep: 5,
      label: "timeline entries",
    },
  ],
  piped: (t, c) => viewLines(ISSUE_TIMELINE_TABLE, t.data, undefined, c),
};
