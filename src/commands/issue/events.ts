import type { TrackerContext } from "../../context.ts";
import { listIssueEventsPage } from "../../lib/api/events.ts";
import { continuesPastEnd, cursorKey, resolveCursor, saveCursor } from "../../lib/db/cursors.ts";
import { ISSUE_EVENTS_VIEW } from "../../lib/format/issue-events.ts";
import { fetchLimited } from "../../lib/http/paginate.ts";
import { resolveIssue } from "../../lib/issue/resolve.ts";
import { writeListTip, writePastEnd, writeTip } from "../../lib/output.ts";
import { writeListView } from "../../lib/view/render.ts";
import type { EventsFlags } from "./changes.ts";
import { nextPageCommand } from "../../lib/list-page.ts";
import { quoteWord } from "../../lib/shell-quote.ts";
import { DEFAULT_PERIOD } from "../../lib/flags.ts";
import { readListFilters } from "../../lib/list-filters.ts";

/** `tracker issue events <issue>`: an issue's events, newest first, with a saved cursor. */
export default async function issueEvents(
  this: TrackerContext,
  flags: EventsFlags,
  ref: string,
): Promise<void> {
  const f = readListFilters(this, flags, DEFAULT_PERIOD);
  const { win, environments } = f;
  const { org, issue } = await resolveIssue(this, ref, { command: "tracker issue events" });
  const query = flags.query?.trim() || undefined;
  const key = cursorKey("issue-events", `${org}/${issue.id}`, {
    query,
    full: String(flags.full),
    ...f.key,
  });
  if (continuesPastEnd(this, key, flags.cursor))
    return writePastEnd(this, flags.json, `events of ${issue.shortId}`);
  const start = resolveCursor(this, key, flags.cursor);
  const page = await fetchLimited(flags.limit, start, (size, cursor) =>
    listIssueEventsPage(this, org, issue.id, {
      query,
      period: win.window,
      environments,
      full: flags.full,
      size,
      cursor,
    }),
  );
  saveCursor(this, key, page.nextCursor);
  const run = {
    view: ISSUE_EVENTS_VIEW,
    items: page.data,
    options: undefined,
    page: { nextCursor: page.nextCursor, resumeAt: page.resumeAt },
    save: (c: string | undefined) => saveCursor(this, key, c),
  };
  if (flags.json) return writeListView(this, true, run);
  if (page.data.length === 0) {
    writeTip(this, `No events of ${issue.shortId}${f.envText} match in ${win.text}.`);
    return;
  }
  await writeListView(this, false, run);
  writeListTip(
    this,
    `Events of ${issue.shortId} (${org}). One event: tracker event view ${quoteWord(`${org}/${issue.project.slug}`)}/<event-id>`,
  );
  if (page.nextCursor) {
    writeListTip(
      this,
      `More events: ${nextPageCommand("tracker issue events", `${org}/${issue.shortId}`, f.argv)}`,
    );
  }
}
