/** What `--dry-run` prints for a release change: the exact request, and that nothing was sent. */
import type { TrackerContext } from "../../context.ts";
import type { PlannedRequest } from "../api/releases.ts";
import { writeDryRunView } from "../view/write.ts";

/**
 * Prints the request a change would send: `--json` gives the one dry-run document (`{"dryRun":
 * true, "requests": [{"method", "path", "body"?}]}`, lib/dry-run.ts); otherwise the method and
 * path, then the JSON body indented, on stdout (lib/format/dry-run.ts).
 */
export function writeDryRun(ctx: TrackerContext, req: PlannedRequest, json: boolean): void {
  writeDryRunView(ctx, json, { requests: [req] });
}
