/** The `issue list` table (spec rule 5). */
import type { Issue } from "../api/issues.ts";
import { type Column, formatTable } from "./table.ts";
import { listTime } from "./time.ts";
import { paint } from "../style.ts";

/** Options of the issue table. */
export interface IssueTableOptions {
  /** Terminal width: truncate TITLE to fit and show relative LAST SEEN (TTY). Undefined when piped. */
  width?: number;
  now: number;
  /**
   * Alias per issue (multi-project and org-wide modes): adds the ALIAS column, first in a terminal
   * and second when piped (a piped row always starts with what `issue view` and `issue resolve -` accept).
   */
  aliasOf?: (issue: Issue) => string;
  /** The piped ID cell (e.g. `org/SHORT-ID` where the short ID alone is ambiguous); default the short ID. */
  idOf?: (issue: Issue) => string;
  /** Colour the ID by level (TTY without NO_COLOR only). */
  color?: boolean;
  /** The listing's sort: `new` adds FIRST SEEN (the other sort keys already have a column). */
  sort?: string;
}

const LEVEL_COLORS: Record<string, string> = {
  fatal: "1;31",
  error: "31",
  warning: "33",
  info: "34",
  debug: "2",
};

/** The leading cells of a row: [ALIAS] ID in a terminal, ID [ALIAS] when piped. */
function leadCells(i: Issue, opts: IssueTableOptions): string[] {
  const alias = opts.aliasOf ? [opts.aliasOf(i)] : [];
  if (opts.width !== undefined) return [...alias, i.shortId];
  return [opts.idOf ? opts.idOf(i) : i.shortId, ...alias];
}

/**
 * Renders issues as table lines: [ALIAS] ID LEVEL TITLE EVENTS USERS [FIRST SEEN] LAST SEEN (piped:
 * ID first, then the alias, so `cut -f1` gives references). The
 * LEVEL column says in words what the ID's colour says, so it survives NO_COLOR and pipes; the
 * sort key always has a column (FIRST SEEN appears for `--sort new`).
 */
export function formatIssueTable(issues: readonly Issue[], opts: IssueTableOptions): string[] {
  const byNew = opts.sort === "new";
  const when = (iso: string | null) => listTime(iso, opts.now, opts.width !== undefined);
  const lead: Column[] = [{ header: "id" }];
  if (opts.aliasOf) lead.unshift({ header: "alias" });
  const columns: Column[] = [
    ...lead,
    { header: "level" },
    { header: "title", flex: true },
    { header: "events", align: "right" },
    { header: "users", align: "right" },
    ...(byNew ? [{ header: "first seen" }] : []),
    { header: "last seen" },
  ];
  const rows = issues.map((i) => [
    ...leadCells(i, opts),
    i.level,
    i.title,
    String(i.count),
    String(i.userCount),
    ...(byNew ? [when(i.firstSeen)] : []),
    when(i.lastSeen),
  ]);
  const lines = formatTable(columns, rows, opts.width);
  if (!opts.color) return lines;
  // Colour after layout so escape codes never count toward column widths.
  return lines.map((line, n) => {
    const issue = n === 0 ? undefined : issues[n - 1];
    const code = issue ? LEVEL_COLORS[issue.level] : undefined;
    if (!issue || !code) return line;
    const at = line.indexOf(issue.shortId, opts.aliasOf ? opts.aliasOf(issue).length : 0);
    return at < 0
      ? line
      : `${line.slice(0, at)}${paint(issue.shortId, code, "0")}${line.slice(at + issue.shortId.length)}`;
  });
}
