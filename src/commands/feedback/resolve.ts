import type { TrackerContext } from "../../context.ts";
import { setFeedbackStatus } from "../../lib/issue/feedback-status.ts";
import type { FeedbackChangeFlags } from "./index.ts";

/** `tracker feedback resolve <feedback…>`. */
export default async function feedbackResolve(
  this: TrackerContext,
  flags: FeedbackChangeFlags,
  ...refs: string[]
) {
  await setFeedbackStatus(
    this,
    { command: "tracker feedback resolve", verb: "resolve", done: "resolved" },
    flags,
    refs,
    "resolved",
  );
}
