/** Feedback (API.md §22.8) for people and scripts: the JSON rows and view, the table, the view lines. */
import * as v from "valibot";
import type { ApiEvent } from "../api/events.ts";
import { type ApiFeedback, FeedbackContexts } from "../api/feedback.ts";
import { quoteWord } from "../shell-quote.ts";
import { oneLine } from "./one-line.ts";
import { formatTable } from "./table.ts";
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

/** The feedback table: WHEN, ID, FROM, STATUS, MESSAGE (flex). */
export function formatFeedbackTable(
  rows: readonly FeedbackRow[],
  opts: { width?: number; nowMs: number },
): string[] {
  return formatTable(
    [
      { header: "When" },
      { header: "ID" },
      { header: "From" },
      { header: "Status" },
      { header: "Message", flex: true },
    ],
    rows.map((r) => [
      listTime(r.date, opts.nowMs, opts.width !== undefined),
      r.shortId,
      oneLine(r.email ?? r.name ?? "anonymous"),
      r.status,
      oneLine(r.message),
    ]),
    opts.width,
  );
}

/** The human view of one feedback. */
export function formatFeedbackView(f: FeedbackView): string[] {
  const from = [f.name, f.email ? `<${f.email}>` : null].filter(Boolean).join(" ") || "anonymous";
  return [
    `${f.shortId} (${f.org}/${f.project}, ${f.status})`,
    "",
    `  From:     ${oneLine(from)}`,
    `  When:     ${isoSeconds(f.date)}`,
    `  Page:     ${oneLine(f.url ?? "-")}`,
    `  Replay:   ${f.replayId ? `${f.replayId} (tracker replay view ${quoteWord(f.replayId)} ${quoteWord(`${f.org}/${f.project}`)})` : "-"}`,
    `  Error:    ${f.associatedEventId ?? "-"}`,
    "",
    ...f.message.split(/\r\n|[\r\n]/).map((l) => `  ${l}`),
  ];
}
