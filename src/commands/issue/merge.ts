import type { TrackerContext } from "../../context.ts";
import { CliError } from "../../lib/errors.ts";
import { confirmMerge, mergeTargets, plannedMerge, sendMerge } from "../../lib/issue/merge.ts";
import { jsonText, writeJson, writeLines, writeTip } from "../../lib/output.ts";
import type { MergeFlags } from "./incident-specs.ts";

/** `tracker issue merge <issue>… --into <issue>`: one bulk merge; Sentry picks the parent. */
export default async function issueMerge(this: TrackerContext, flags: MergeFlags, ...args: string[]) {
  const { org, targets } = await mergeTargets(this, args, flags.into);
  if (flags.dryRun) {
    const request = plannedMerge(org, targets);
    if (flags.json) return writeJson(this, { dryRun: true, requests: [request] });
    writeLines(this, [`${request.method} ${request.path}`, ...jsonText(request.body, true).split("\n")]);
    return writeTip(this, "Dry run: nothing was sent.");
  }
  if (!(await confirmMerge(this, targets, flags))) {
    this.stderr.write("Nothing was merged.\n");
    return;
  }
  const report = await sendMerge(this, org, targets);
  if (!report.parent) throw new CliError("The service merged nothing (none of the issues was found).", 1);
  if (report.parent.shortId !== report.into) {
    this.log.warn(
      `--into ${report.into} was a preference: Sentry kept ${report.parent.shortId} as the parent (it has the most events).`,
    );
  }
  if (flags.json) return writeJson(this, report);
  const n = report.children.length;
  writeLines(
    this,
    `Merged ${n} issue${n === 1 ? "" : "s"} into ${report.parent.shortId}: ${report.children.map((c) => c.shortId).join(", ")}`,
  );
}
