import type { TrackerContext } from "../../context.ts";
import { type ApiEvent, eventMessage, eventTimestamp, listIssueEventsPage } from "../../lib/api/events.ts";
import { continuesPastEnd, cursorKey, resolveCursor, saveCursor } from "../../lib/db/cursors.ts";
import { scrubEvent } from "../../lib/format/event-view.ts";
import { formatTable } from "../../lib/format/table.ts";
import { listTime } from "../../lib/format/time.ts";
import { fetchLimited } from "../../lib/http/paginate.ts";
import { resolveIssue } from "../../lib/issue/resolve.ts";
import { writeJson, writeList, writeListTip, writePastEnd, writeTip } from "../../lib/output.ts";
import type { EventsFlags } from "./changes.ts";
import { listDocument, nextPageCommand } from "../../lib/list-page.ts";
import { quoteWord } from "../../lib/shell-quote.ts";
import { DEFAULT_PERIOD } from "../../lib/flags.ts";
import { readListFilters } from "../../lib/list-filters.ts";

function tag(e: ApiEvent, key: string): string {
  return e.tags?.find((t) => t.key === key)?.value ?? "";
}

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
  if (flags.json) {
    return writeJson(
      this,
      listDocument(
        { ...page, data: page.data.map((e) => scrubEvent(e)) },
        { save: (c) => saveCursor(this, key, c) },
      ),
    );
  }
  if (page.data.length === 0) {
    writeTip(this, `No events of ${issue.shortId}${f.envText} match in ${win.text}.`);
    return;
  }
  const rows = page.data.map((e) => [
    e.eventID,
    listTime(eventTimestamp(e), this.now(), this.isStdoutTTY),
    tag(e, "environment"),
    tag(e, "release"),
    eventMessage(e),
  ]);
  await writeList(
    this,
    formatTable(
      [
        { header: "Event ID" },
        { header: "Timestamp" },
        { header: "Env" },
        { header: "Release" },
        { header: "Message", flex: true },
      ],
      rows,
      this.isStdoutTTY ? this.terminalWidth : undefined,
    ),
  );
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
