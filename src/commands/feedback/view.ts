import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { type ApiEvent, getLatestEvent } from "../../lib/api/events.ts";
import { ApiFeedback } from "../../lib/api/feedback.ts";
import { ApiError } from "../../lib/errors.ts";
import { FEEDBACK_VIEW, toFeedbackView } from "../../lib/format/feedback.ts";
import { issueWith } from "../../lib/issue/issue-with.ts";
import { writeDocView } from "../../lib/view/render.ts";
import type { FeedbackViewFlags } from "./index.ts";

/** The feedback event, or null when it expired. */
async function eventOrNull(ctx: TrackerContext, org: string, id: string): Promise<ApiEvent | null> {
  try {
    return await getLatestEvent(ctx, org, id);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

/** `tracker feedback view <feedback>`: who, when, the page, the replay, the error event, the message. */
export default async function feedbackView(this: TrackerContext, flags: FeedbackViewFlags, ref: string) {
  const { org, issue, extra } = await issueWith(
    this,
    ref,
    { command: "tracker feedback view", fresh: flags.fresh },
    (org, id) => eventOrNull(this, org, id),
  );
  const view = toFeedbackView(v.parse(ApiFeedback, issue), extra, org);
  await writeDocView(this, flags.json, FEEDBACK_VIEW, view);
}
