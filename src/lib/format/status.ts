/** The `tracker status` screen: per organization, its three sections, each a small issue table. */
import type { Issue } from "../api/issues.ts";
import type { OrgPlate, PlateList, PlateSection } from "../status/plate.ts";
import { type Column, formatTable } from "./table.ts";
import { isoSeconds, listTime } from "./time.ts";
import { oneLine } from "./one-line.ts";

/** Options of the status screen. */
export interface StatusFormatOptions {
  /** Terminal width (aligned table, relative times); undefined when piped (tab-separated rows). */
  width?: number;
  now: number;
}

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

const COLUMNS: Column[] = [
  { header: "id" },
  { header: "title", flex: true },
  { header: "events", align: "right" },
  { header: "last seen" },
];

function issueRows(issues: readonly Issue[], opts: StatusFormatOptions): string[] {
  const tty = opts.width !== undefined;
  return formatTable(
    COLUMNS,
    issues.map((i) => [i.shortId, i.title, String(i.count), listTime(i.lastSeen, opts.now, tty)]),
    opts.width,
  );
}

function sectionLines(
  org: string,
  name: PlateSection,
  list: PlateList,
  since: string,
  opts: StatusFormatOptions,
) {
  const count = shownOf(list.issues.length, list.total);
  const heading = `${oneLine(org)}: ${TITLES[name](since)}${count && list.issues.length > 0 ? ` (${count})` : ""}`;
  if (list.issues.length === 0) return [heading, `  ${EMPTY[name](since)}`];
  return [heading, ...issueRows(list.issues, opts)];
}

/**
 * The whole screen: for each organization, its sections (heading, then the table or a line saying
 * the section is empty), separated by blank lines. Piped, only rows, tab-separated, with the
 * organization and section as their first columns (org, section, ID, title, events, last seen in
 * RFC 3339), so `tracker status | cut -f3` is the issue IDs; an empty section has no row.
 */
export function formatStatus(plates: readonly OrgPlate[], opts: StatusFormatOptions): string[] {
  if (opts.width === undefined) {
    return plates.flatMap((p) =>
      ORDER.flatMap((name) => issueRows(p[name].issues, opts).map((row) => `${p.org}\t${name}\t${row}`)),
    );
  }
  const out: string[] = [];
  for (const p of plates) {
    const since = isoSeconds(p.since);
    for (const name of ORDER) {
      if (out.length > 0) out.push("");
      out.push(...sectionLines(p.org, name, p[name], since, opts));
    }
  }
  return out;
}
