import type { TrackerContext } from "../../context.ts";
import { listFeedback } from "../../lib/api/feedback.ts";
import { formatFeedbackTable, toFeedbackRow } from "../../lib/format/feedback.ts";
import { writeJson, writeList, writeTip } from "../../lib/output.ts";
import { getProjectId } from "../../lib/resolve/project-id.ts";
import { resolveOrgProject } from "../../lib/resolve/target.ts";
import { quoteWord } from "../../lib/shell-quote.ts";
import type { FeedbackListFlags } from "./index.ts";

/** `tracker feedback list [<org>/<project>]`: the project's user feedback, newest first. */
export default async function feedbackList(this: TrackerContext, flags: FeedbackListFlags, target?: string) {
  const { org, project } = await resolveOrgProject(this, target, { command: "tracker feedback list" });
  const projectId = await getProjectId(this, org, project);
  const page = await listFeedback(this, {
    org,
    projectId,
    status: flags.status,
    period: flags.period,
    limit: flags.limit,
    cursor: flags.cursor,
  });
  const rows = page.data.map(toFeedbackRow);
  if (flags.json) {
    return writeJson(this, {
      data: rows,
      hasMore: page.nextCursor !== undefined,
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    });
  }
  if (rows.length === 0)
    return writeTip(
      this,
      `No ${flags.status === "all" ? "" : `${flags.status} `}feedback in ${org}/${project} in the last ${flags.period}.`,
    );
  await writeList(
    this,
    formatFeedbackTable(rows, {
      width: this.isStdoutTTY ? this.terminalWidth : undefined,
      nowMs: this.now(),
    }),
    `Feedback of ${org}/${project}`,
  );
  if (page.nextCursor)
    writeTip(
      this,
      `More: tracker feedback list ${quoteWord(`${org}/${project}`)} -c ${quoteWord(page.nextCursor)}`,
    );
}
