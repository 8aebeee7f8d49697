import type { TrackerContext } from "../../context.ts";
import { listFeedback } from "../../lib/api/feedback.ts";
import { FEEDBACK_LIST_VIEW, toFeedbackRow } from "../../lib/format/feedback.ts";
import { writePastEnd, writeTip } from "../../lib/output.ts";
import { continuesPastEnd, cursorKey, resolveCursor, saveCursor } from "../../lib/db/cursors.ts";
import { nextPageCommand } from "../../lib/list-page.ts";
import { getProjectId } from "../../lib/resolve/project-id.ts";
import { resolveOrgProject } from "../../lib/resolve/target.ts";
import { writeListView } from "../../lib/view/render.ts";
import { FEEDBACK_LIMIT, FEEDBACK_PERIOD } from "./defaults.ts";
import type { FeedbackListFlags } from "./index.ts";

/** `tracker feedback list [<org>/<project>]`: the project's user feedback, newest first. */
export default async function feedbackList(this: TrackerContext, flags: FeedbackListFlags, target?: string) {
  const { org, project } = await resolveOrgProject(this, target, { command: "tracker feedback list" });
  const key = cursorKey("feedback-list", `${org}/${project}`, { status: flags.status, period: flags.period });
  if (continuesPastEnd(this, key, flags.cursor))
    return writePastEnd(this, flags.json, `feedback entries in ${org}/${project}`);
  // `-c last` is the position saved by the previous listing, never a cursor to send as it is.
  const cursor = resolveCursor(this, key, flags.cursor);
  const projectId = await getProjectId(this, org, project);
  const page = await listFeedback(this, {
    org,
    projectId,
    status: flags.status,
    period: flags.period,
    limit: flags.limit,
    cursor,
  });
  saveCursor(this, key, page.nextCursor);
  const { data, ...rest } = page;
  const rows = data.map(toFeedbackRow);
  const run = {
    view: FEEDBACK_LIST_VIEW,
    items: rows,
    options: undefined,
    page: rest,
    save: (c: string | undefined) => saveCursor(this, key, c),
    title: `Feedback of ${org}/${project}`,
  };
  if (flags.json) return writeListView(this, true, run);
  if (rows.length === 0)
    return writeTip(
      this,
      `No ${flags.status === "all" ? "" : `${flags.status} `}feedback in ${org}/${project} in the last ${flags.period}.`,
    );
  await writeListView(this, false, run);
  if (page.nextCursor)
    writeTip(
      this,
      `More: ${nextPageCommand("tracker feedback list", `${org}/${project}`, pageWords(flags))}`,
    );
}

/** The words that repeat this listing's flags, so the next page keeps its filters (nextPageCommand quotes them). */
function pageWords(flags: FeedbackListFlags): string[] {
  const words: string[] = [];
  if (flags.status !== "unresolved") words.push("--status", flags.status);
  if (flags.period !== FEEDBACK_PERIOD) words.push("-t", flags.period);
  if (flags.limit !== FEEDBACK_LIMIT.fallback) words.push("-n", String(flags.limit));
  return words;
}
