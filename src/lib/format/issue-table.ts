/** The `issue list` view (spec rule 5). */
import type { Issue } from "../api/issues.ts";
import { paint } from "../style.ts";
import type { ListView, ViewColumn } from "../view/list.ts";
import { listTime } from "./time.ts";

/** What an `issue list` run chooses beyond its rows. */
export interface IssueListOptions {
  /**
   * Alias per issue (multi-project and org-wide modes): adds the ALIAS column, first in a terminal
   * and second when piped (a piped row always starts with what `issue view` and `issue resolve -` accept).
   */
  aliasOf?: (issue: Issue) => string;
  /** The piped ID cell (e.g. `org/SHORT-ID` where the short ID alone is ambiguous); default the short ID. */
  idOf?: (issue: Issue) => string;
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

/**
 * `issue list`: [ALIAS] ID LEVEL TITLE EVENTS USERS [FIRST SEEN] LAST SEEN (piped and in markdown:
 * ID first, then the alias, so `cut -f1` gives references). The LEVEL column says in words what
 * the ID's colour says, so it survives NO_COLOR and pipes; the sort key always has a column
 * (FIRST SEEN appears for `--sort new`). A row's document is the issue as listed (with its
 * organization and alias).
 */
export const ISSUE_LIST_VIEW: ListView<Issue, IssueListOptions> = {
  name: "issue list",
  id: "shortId",
  document: (i) => i,
  columns: (o, c) => {
    const id: ViewColumn<Issue> = {
      header: "id",
      cell: (i) => (c.tty || !o.idOf ? i.shortId : o.idOf(i)),
    };
    const alias: ViewColumn<Issue>[] = o.aliasOf ? [{ header: "alias", cell: o.aliasOf }] : [];
    const byNew: ViewColumn<Issue>[] =
      o.sort === "new" ? [{ header: "first seen", cell: (i, x) => listTime(i.firstSeen, x.now, x.tty) }] : [];
    return [
      ...(c.tty ? [...alias, id] : [id, ...alias]),
      { header: "level", cell: (i) => i.level },
      { header: "title", flex: true, cell: (i) => i.title },
      { header: "events", align: "right", cell: (i) => String(i.count) },
      { header: "users", align: "right", cell: (i) => String(i.userCount) },
      ...byNew,
      { header: "last seen", cell: (i, x) => listTime(i.lastSeen, x.now, x.tty) },
    ];
  },
  // The ID in its level's colour, found after the alias cell.
  paint: (line, issue, o) => {
    const code = LEVEL_COLORS[issue.level];
    if (!code) return line;
    const at = line.indexOf(issue.shortId, o.aliasOf ? o.aliasOf(issue).length : 0);
    return at < 0
      ? line
      : `${line.slice(0, at)}${paint(issue.shortId, code, "0")}${line.slice(at + issue.shortId.length)}`;
  },
};
