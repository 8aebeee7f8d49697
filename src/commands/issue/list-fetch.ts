/** The requests of `issue list`: its window and environments read once, the search paged to a limit. */
import type { TrackerContext } from "../../context.ts";
import { type ApiIssue, searchIssuesPage } from "../../lib/api/issues.ts";
import { cursorKey } from "../../lib/db/cursors.ts";
import { chosenEnvironments, environmentKey } from "../../lib/environments.ts";
import { DEFAULT_PERIOD } from "../../lib/flags.ts";
import { fetchLimited, type Page } from "../../lib/http/paginate.ts";
import { type ResolvedWindow, resolveWindow } from "../../lib/time-window.ts";
import type { IssueListFlags } from "./index.ts";

/** `issue list`'s flags with the window read against now and the environments chosen. */
export interface IssueListRun extends IssueListFlags {
  readonly win: ResolvedWindow;
  readonly environments: readonly string[];
}

/** Reads the window (refusing a bad one) and the environments (flag, else the stored default). */
export function prepareIssueList(ctx: TrackerContext, flags: IssueListFlags): IssueListRun {
  const win = resolveWindow(flags, DEFAULT_PERIOD, ctx.now());
  return { ...flags, win, environments: chosenEnvironments(ctx, flags.environment) };
}

/** Up to `limit` issues of the given projects (`["-1"]`: all), with the service's count of matches. */
export async function fetchIssues(
  ctx: TrackerContext,
  org: string,
  projects: readonly string[],
  flags: IssueListRun,
  limit: number,
  cursor: string | undefined,
): Promise<Page<ApiIssue> & { total?: number }> {
  const { query, sort, environments } = flags;
  let total: number | undefined;
  const page = await fetchLimited(limit, cursor, async (size, c) => {
    const p = await searchIssuesPage(ctx, {
      org,
      projects,
      query,
      sort,
      period: flags.win.window,
      environments,
      limit: size,
      cursor: c,
    });
    total ??= p.hits;
    return p;
  });
  return total === undefined ? page : { ...page, total };
}

/** The saved-cursor key of a listing: target, sort, query, window and environments. */
export function keyFor(target: string, flags: IssueListRun): string {
  return cursorKey("issue-list", target, {
    sort: flags.sort,
    query: flags.query,
    period: flags.win.key,
    ...environmentKey(flags.environments),
  });
}
