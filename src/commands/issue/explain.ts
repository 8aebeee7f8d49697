import type { TrackerContext } from "../../context.ts";
import { getAutofixState } from "../../lib/api/autofix.ts";
import { ISSUE_EXPLAIN_VIEW } from "../../lib/format/issue-analysis.ts";
import { ensureRootCause } from "../../lib/issue/analysis.ts";
import { toExplainJson } from "../../lib/issue/analysis-json.ts";
import { issueWith } from "../../lib/issue/issue-with.ts";
import { startSpinner } from "../../lib/spinner.ts";
import { writeLines } from "../../lib/output.ts";
import { docViewLines, writeDocView } from "../../lib/view/render.ts";

/** `tracker issue explain <issue>`: the root cause from the service's AI analysis (reused when finished). */
export default async function issueExplain(
  this: TrackerContext,
  flags: { json: boolean; fresh: boolean; force: boolean },
  ref: string,
): Promise<void> {
  // A known reference asks for the issue and its analysis state at once (one round trip when finished).
  const {
    org,
    issue,
    extra: initialState,
  } = await issueWith(this, ref, { command: "tracker issue explain", fresh: flags.fresh }, (o, id) =>
    flags.force ? Promise.resolve(null) : getAutofixState(this, o, id),
  );
  const spinner = startSpinner(this, `Analysing ${issue.shortId}…`);
  let view: Awaited<ReturnType<typeof ensureRootCause>>;
  try {
    view = await ensureRootCause(this, org, issue.id, issue.shortId, {
      force: flags.force,
      initialState,
      onProgress: (text) => spinner.update(text),
    });
  } finally {
    spinner.stop();
  }
  const out = toExplainJson(issue.id, view);
  const analysis = { label: `${issue.shortId}: ${issue.title}`, json: out };
  if (flags.json) return writeDocView(this, true, ISSUE_EXPLAIN_VIEW, analysis);
  // Printed at once where the spinner was, never through the pager (as the analysis always was).
  writeLines(this, docViewLines(this, ISSUE_EXPLAIN_VIEW, analysis));
}
