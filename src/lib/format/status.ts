/** The `tracker status` screen: per organization, its three sections, each a small issue table. */
import type { Issue } from "../api/issues.ts";
import type { OrgPlate, PlateSection } from "../status/plate.ts";
import { type DocView, type ViewSection, tableBlock } from "../view/doc.ts";
import { type ListView, viewLines } from "../view/list.ts";
import { isoSeconds, listTime } from "./time.ts";

/** A count as people read it: `1,234`. */
export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/** `Showing 25 of 1,234` when the service counted more than are shown, `25` when all are shown. */
export function shownOf(shown: number, total: number | undefined): string | undefined {
  if (total === undefined || total < shown) return undefined;
  return total > shown ? `showing ${formatCount(shown)} of ${formatCount(total)}` : formatCount(total);
}

const ORDER: readonly PlateSection[] = ["assigned", "regressed", "new"];

const TITLES: Record<PlateSection, (since: string) => string> = {
  assigned: () => "assigned to you or your teams",
  regressed: () => "regressed",
  new: (since) => `new since ${since}`,
};

const EMPTY: Record<PlateSection, (since: string) => string> = {
  assigned: () => "Nothing assigned to you.",
  regressed: () => "Nothing regressed.",
  new: (since) => `No new issues since ${since}.`,
};

/** The issues of one section. */
export const STATUS_ISSUE_VIEW: ListView<Issue> = {
  name: "status section",
  partOf: "status",
  id: "shortId",
  document: (i) => i,
  columns: () => [
    { header: "id", cell: (i) => i.shortId },
    { header: "title", flex: true, cell: (i) => i.title },
    { header: "events", align: "right", cell: (i) => String(i.count) },
    { header: "last seen", cell: (i, c) => listTime(i.lastSeen, c.now, c.tty) },
  ],
};

/** What `tracker status` shows: each organization's plate, and the organizations it could not read. */
export interface StatusScreen {
  plates: readonly OrgPlate[];
  errors: readonly { org: string; message: string }[];
}

/**
 * The screen: for each organization, its three sections (heading, then the table or a line saying
 * the section is empty). Piped, only rows, tab-separated, with the organization and section as
 * their first columns (org, section, ID, title, events, last seen in RFC 3339), so
 * `tracker status | cut -f3` is the issue IDs; an empty section has no row.
 */
export const STATUS_VIEW: DocView<StatusScreen> = {
  name: "status",
  id: "org",
  document: (s) => ({ data: s.plates, ...(s.errors.length > 0 ? { errors: s.errors } : {}) }),
  sections: (s) => [
    ...s.plates.flatMap((p) => {
      const since = isoSeconds(p.since);
      return ORDER.map((name): ViewSection => {
        const list = p[name];
        const count = shownOf(list.issues.length, list.total);
        return {
          heading: `${p.org}: ${TITLES[name](since)}${count && list.issues.length > 0 ? ` (${count})` : ""}`,
          block: tableBlock(STATUS_ISSUE_VIEW, list.issues, undefined),
          empty: EMPTY[name](since),
          priority: 2,
          keep: 3,
          label: `${name} issues`,
        };
      });
    }),
    {
      heading: "Could not read",
      block: { kind: "pairs", pairs: s.errors.map((e) => [e.org, e.message] as const) },
      markdownOnly: true,
    },
  ],
  piped: (s, c) =>
    s.plates.flatMap((p) =>
      ORDER.flatMap((name) =>
        viewLines(STATUS_ISSUE_VIEW, p[name].issues, undefined, c).map((row) => `${p.org}\t${name}\t${row}`),
      ),
    ),
};
