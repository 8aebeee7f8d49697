/** The `issue events` view: an issue's events, newest first. */
import { type ApiEvent, eventMessage, eventTimestamp } from "../api/events.ts";
import type { ListView } from "../view/list.ts";
import { scrubEvent } from "./event-view.ts";
import { listTime } from "./time.ts";

function tag(e: ApiEvent, key: string): string {
  return e.tags?.find((t) => t.key === key)?.value ?? "";
}

/**
 * `issue events`: EVENT ID, TIMESTAMP, ENV, RELEASE, MESSAGE. A row's document is the event
 * without its request's credentials (scrubEvent).
 */
export const ISSUE_EVENTS_VIEW: ListView<ApiEvent> = {
  name: "issue events",
  id: "eventID",
  document: (e) => scrubEvent(e),
  columns: () => [
    { header: "Event ID", cell: (e) => e.eventID },
    { header: "Timestamp", cell: (e, c) => listTime(eventTimestamp(e), c.now, c.tty) },
    { header: "Env", cell: (e) => tag(e, "environment") },
    { header: "Release", cell: (e) => tag(e, "release") },
    { header: "Message", flex: true, cell: eventMessage },
  ],
};
