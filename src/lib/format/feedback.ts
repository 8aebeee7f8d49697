/** Feedback (API.md §22.8) for people and scripts: the JSON rows and view, and their view descriptions. */
import * as v from "valibot";
import type { ApiEvent } from "../api/events.ts";
import { type ApiFeedback, FeedbackContexts } from "../api/feedback.ts";
import { quoteWord } from "../shell-quote.ts";
import { oneLine } from "./one-line.ts";
import type { DocView } from "../view/doc.ts";
import type { ListView } from "../view/list.ts";
import { isoSeconds, listTime } from "./time.ts";

/** One feedback as `feedback list --json` prints it. */
export interface FeedbackRow {
  id: string;
  shortId: string;
  project: string;
  status: string;
  message: string;
  name: string | null;
  email: string | null;
  date: string | null;
}

/** `feedback view --json`: the row plus the page, the replay and the error event it came with. */
export interface FeedbackView extends FeedbackRow {
  org: string;
  url: string | null;
  source: string | null;
  replayId: string | null;
  associatedEventId: string | null;
  eventId: string | null;
}

const statusName = (s: string | null | undefined) => (s === "ignored" ? "spam" : (s ?? "unresolved"));

/** The JSON row of one feedback. */
export function toFeedbackRow(f: ApiFeedback): FeedbackRow {
  const m = f.metadata ?? {};
  return {
    id: f.id,
    shortId: f.shortId,
    project: f.project.slug,
    status: statusName(f.status),
    message: m.message ?? m.title ?? "",
    name: m.name || null,
    email: m.contact_email || null,
    date: f.firstSeen ?? null,
  };
}

/** The view of one feedback: its row completed with what its event says. */
export function toFeedbackView(f: ApiFeedback, event: ApiEvent | null, org: string): FeedbackView {
  const parsed = v.safeParse(FeedbackContexts, (event as { contexts?: unknown } | null)?.contexts ?? {});
  const c = parsed.success ? parsed.output : {};
  const fb = c.feedback ?? {};
  const row = toFeedbackRow(f);
  return {
    ...row,
    org,
    message: fb.message || row.message,
    name: fb.name || row.name,
    email: fb.contact_email || row.email,
    url: fb.url || null,
    source: fb.source || f.metadata?.source || null,
    replayId: fb.replay_id || c.replay?.replay_id || null,
    associatedEventId: fb.associated_event_id || f.metadata?.associated_event_id || null,
    eventId: event?.eventID ?? null,
  };
}

/** `feedback list`: WHEN, ID, FROM, STATUS, MESSAGE (flex); a row's document is its JSON row. */
export const FEEDBACK_LIST_VIEW: ListView<FeedbackRow> = {
  name: "feedback list",
  id: "shortId",
  document: (r) => r,
  columns: () => [
    { header: "When", cell: (r, c) => listTime(r.date, c.now, c.tty) },
    { header: "ID", cell: (r) => r.shortId },
    { header: "From", cell: (r) => oneLine(r.email ?? r.name ?? "anonymous") },
    { header: "Status", cell: (r) => r.status },
    { header: "Message", flex: true, cell: (r) => oneLine(r.message) },
  ],
};

/** The lines of who wrote it, when, from which page, with which replay and error event. */
function aboutLines(f: FeedbackView): string[] {
  const from = [f.name, f.email ? `<${f.email}>` : null].filter(Boolean).join(" ") || "anonymous";
  const replay = f.replayId
    ? `${f.replayId} (tracker replay view ${quoteWord(f.replayId)} ${quoteWord(`${f.org}/${f.project}`)})`
    : "-";
  return [
    `  From:     ${oneLine(from)}`,
    `  When:     ${isoSeconds(f.date)}`,
    `  Page:     ${oneLine(f.url ?? "-")}`,
    `  Replay:   ${replay}`,
    `  Error:    ${f.associatedEventId ?? "-"}`,
  ];
}

/** `feedback view`: the title line, who and where from, then the message as it was written. */
export const FEEDBACK_VIEW: DocView<FeedbackView> = {
  name: "feedback view",
  id: "shortId",
  document: (f) => f,
  sections: (f) => [
    { block: { kind: "lines", lines: [`${f.shortId} (${f.org}/${f.project}, ${f.status})`] } },
    { block: { kind: "lines", lines: aboutLines(f) } },
    { block: { kind: "lines", lines: f.message.split(/\r\n|[\r\n]/).map((l) => `  ${l}`) } },
  ],
};
