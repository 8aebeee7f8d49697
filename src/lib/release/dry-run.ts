/** What `--dry-run` prints for a release change: the exact request, and that nothing was sent. */
import type { TrackerContext } from "../../context.ts";
import type { PlannedRequest } from "../api/releases.ts";
import { dryRunDocument } from "../dry-run.ts";
import { jsonText, writeJson, writeLines, writeTip } from "../output.ts";

/**
 * Prints the request a change would send: `--json` gives the one dry-run document (`{"dryRun":
 * true, "requests": [{"method", "path", "body"?}]}`, lib/dry-run.ts); otherwise the method and
 * path, then the JSON body indented, on stdout.
 */
export function writeDryRun(ctx: TrackerContext, req: PlannedRequest, json: boolean): void {
  if (json) {
    writeJson(ctx, dryRunDocument([req]));
    return;
  }
  const body = req.body === undefined ? [] : jsonText(req.body, true).split("\n");
  writeLines(ctx, [`${req.method} ${req.path}`, ...body]);
  writeTip(ctx, "Dry run: nothing was sent.");
}
