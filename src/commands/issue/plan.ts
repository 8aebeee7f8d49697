import type { TrackerContext } from "../../context.ts";
import { getAutofixState } from "../../lib/api/autofix.ts";
import { formatPlan } from "../../lib/format/issue-analysis.ts";
import { ensureSolution } from "../../lib/issue/analysis.ts";
import { toPlanJson } from "../../lib/issue/analysis-json.ts";
import { issueWith } from "../../lib/issue/issue-with.ts";
import { startSpinner } from "../../lib/spinner.ts";
import { writeJson, writeLines } from "../../lib/output.ts";

/** `tracker issue plan <issue>`: a numbered fix plan built on the root-cause analysis. */
export default async function issuePlan(
  this: TrackerContext,
  flags: { json: boolean; fresh: boolean; force: boolean },
  ref: string,
): Promise<void> {
  // A known reference asks for the issue and its analysis state at once (one round trip when finished).
  const {
    org,
    issue,
    extra: initialState,
  } = await issueWith(this, ref, { command: "tracker issue plan", fresh: flags.fresh }, (o, id) =>
    flags.force ? Promise.resolve(null) : getAutofixState(this, o, id),
  );
  const spinner = startSpinner(this, `Planning a fix for ${issue.shortId}…`);
  let view: Awaited<ReturnType<typeof ensureSolution>>;
  try {
    view = await ensureSolution(this, org, issue.id, issue.shortId, {
      force: flags.force,
      initialState,
      onProgress: (text) => spinner.update(text),
    });
  } finally {
    spinner.stop();
  }
  const out = toPlanJson(issue.id, view, issue.seerFixabilityScore);
  if (flags.json) return writeJson(this, out);
  writeLines(this, formatPlan(`${issue.shortId}: ${issue.title}`, out));
}
