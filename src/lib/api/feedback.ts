/**
 * User feedback (API.md §22.8): feedback is an issue category, so it is listed through the issue
 * search (`issue.category:feedback`), read through the issue detail and its latest event (whose
 * `feedback` context carries the message, who sent it, the page, the replay and the error event it
 * came with), and resolved, reopened or marked as spam (`ignored`) through the issue update.
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { apiRequest } from "../http/client.ts";
import { fetchLimited, type Page } from "../http/paginate.ts";

const str = v.optional(v.nullable(v.string()));

/** One feedback as the issue search and detail give it (fields optional and nullable as published). */
export const ApiFeedback = v.looseObject({
  id: v.string(),
  shortId: v.string(),
  status: str,
  firstSeen: str,
  lastSeen: str,
  hasSeen: v.optional(v.nullable(v.boolean())),
  project: v.looseObject({ id: v.optional(v.string()), slug: v.string() }),
  metadata: v.optional(
    v.nullable(
      v.looseObject({
        message: str,
        name: str,
        contact_email: str,
        source: str,
        title: str,
        associated_event_id: str,
      }),
    ),
  ),
});
/** A validated feedback. */
export type ApiFeedback = v.InferOutput<typeof ApiFeedback>;

/** Which feedback `feedback list` shows: the inbox (unresolved), resolved, spam, or all. */
export const FEEDBACK_STATUSES = ["unresolved", "resolved", "spam", "all"] as const;
/** A feedback status filter. */
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number];

/** The search query of a status filter (spam is stored as `ignored`). */
export function feedbackQuery(status: FeedbackStatus): string {
  const base = "issue.category:feedback";
  if (status === "all") return base;
  return `${base} status:${status === "spam" ? "ignored" : status}`;
}

/** Lists feedback of a project, newest first, up to `limit`. */
export async function listFeedback(
  ctx: TrackerContext,
  opts: {
    org: string;
    projectId: string;
    status: FeedbackStatus;
    period: string;
    limit: number;
    cursor?: string;
  },
): Promise<Page<ApiFeedback>> {
  return fetchLimited(opts.limit, opts.cursor, async (size, cursor) => {
    const res = await apiRequest(ctx, {
      path: `/api/0/organizations/${encodeURIComponent(opts.org)}/issues/`,
      host: { org: opts.org },
      query: {
        project: opts.projectId,
        query: feedbackQuery(opts.status),
        sort: "date",
        statsPeriod: opts.period,
        limit: size,
        cursor,
      },
      schema: v.array(ApiFeedback),
    });
    return { rows: () => res.data, nextCursor: res.nextCursor };
  });
}

/** One feedback by numeric id. */
export async function getFeedback(ctx: TrackerContext, org: string, id: string): Promise<ApiFeedback> {
  const res = await apiRequest(ctx, {
    path: `/api/0/organizations/${encodeURIComponent(org)}/issues/${encodeURIComponent(id)}/`,
    host: { org },
    schema: ApiFeedback,
  });
  return res.data;
}

/** The `feedback` and `replay` contexts of a feedback event. */
export const FeedbackContexts = v.looseObject({
  feedback: v.optional(
    v.nullable(
      v.looseObject({
        message: str,
        contact_email: str,
        name: str,
        url: str,
        replay_id: str,
        associated_event_id: str,
        source: str,
      }),
    ),
  ),
  replay: v.optional(v.nullable(v.looseObject({ replay_id: str }))),
});
