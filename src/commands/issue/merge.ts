import type { TrackerContext } from "../../context.ts";
import { CliError } from "../../lib/errors.ts";
import { confirmMerge, mergeTargets, plannedMerge, sendMerge } from "../../lib/issue/merge.ts";
import { writeDryRunView, writeResult } from "../../lib/view/write.ts";
import type { MergeFlags } from "./incident-specs.ts";

/** `tracker issue merge <issue>… --into <issue>`: one bulk merge; Sentry picks the parent. */
export default async function issueMerge(this: TrackerContext, flags: MergeFlags, ...args: string[]) {
  const { org, targets } = await mergeTargets(this, args, flags.into);
  if (flags.dryRun) return writeDryRunView(this, flags.json, { requests: [plannedMerge(org, targets)] });
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
  const n = report.children.length;
  writeResult(
    this,
    flags.json,
    report,
    `Merged ${n} issue${n === 1 ? "" : "s"} into ${report.parent.shortId}: ${report.children.map((c) => c.shortId).join(", ")}`,
  );
}
