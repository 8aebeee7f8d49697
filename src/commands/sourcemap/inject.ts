import type { TrackerContext } from "../../context.ts";
import { writeTip } from "../../lib/output.ts";
import { formatInjectReport, injectPaths } from "../../lib/sourcemap/inject.ts";
import { writeResult } from "../../lib/view/write.ts";
import type { InjectFlags } from "./index.ts";
import { oneLine } from "../../lib/format/one-line.ts";

/** `tracker sourcemap inject`: add debug IDs, report what changed. */
export default async function sourcemapInject(
  this: TrackerContext,
  flags: InjectFlags,
  ...paths: string[]
): Promise<void> {
  const report = injectPaths(paths, { cwd: this.cwd, dryRun: flags.dryRun, ignore: flags.ignore ?? [] });
  // A --dry-run here changes local files only: its document is the report (no requests to show).
  writeResult(this, flags.json, report, formatInjectReport(report));
  if (flags.json) return;
  for (const s of report.skipped)
    if (s.reason !== "no source map") writeTip(this, `skipped ${oneLine(s.path)}: ${oneLine(s.reason)}`);
  if (report.injected.length > 0 && !flags.dryRun)
    writeTip(this, "Deploy these files, then: tracker sourcemap upload <dir> <org>/<project>");
}
