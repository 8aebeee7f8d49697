import type { TrackerContext } from "../../context.ts";
import { setFeedbackStatus } from "../../lib/issue/feedback-status.ts";
import type { FeedbackChangeFlags } from "./index.ts";

/** `tracker feedback spam <feedback…>`. */
export default async function feedbackSpam(
  this: TrackerContext,
  flags: FeedbackChangeFlags,
  ...refs: string[]
) {
  await setFeedbackStatus(
    this,
    { command: "tracker feedback spam", verb: "spam", done: "marked as spam" },
    flags,
    refs,
    "ignored",
  );
}
