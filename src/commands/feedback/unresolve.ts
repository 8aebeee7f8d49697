import type { TrackerContext } from "../../context.ts";
import { setFeedbackStatus } from "../../lib/issue/feedback-status.ts";
import type { FeedbackChangeFlags } from "./index.ts";

/** `tracker feedback unresolve <feedback…>`. */
export default async function feedbackUnresolve(
  this: TrackerContext,
  flags: FeedbackChangeFlags,
  ...refs: string[]
) {
  await setFeedbackStatus(
    this,
    { command: "tracker feedback unresolve", verb: "unresolve", done: "moved back to the inbox" },
    flags,
    refs,
    "unresolved",
  );
}
