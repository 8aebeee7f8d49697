import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { type PlannedRequest, releaseNotFound, releasePath, sendPlanned } from "../../lib/api/releases.ts";
import { canPrompt } from "../../lib/automation.ts";
import { ContextError, PromptCancelled } from "../../lib/errors.ts";
import { writeTip } from "../../lib/output.ts";
import { writeDryRun } from "../../lib/release/dry-run.ts";
import { resolveReleaseOrg } from "../../lib/release/target.ts";
import { quoteWord } from "../../lib/shell-quote.ts";
import { writeResult } from "../../lib/view/write.ts";
import type { DeleteFlags } from "./changes.ts";

/**
 * A release is deleted only when the person at a terminal says so (default No), or with --yes;
 * without a terminal (a pipe, CI, an agent, --json) no question can be asked, so --yes is required.
 */
async function confirmDelete(
  ctx: TrackerContext,
  version: string,
  org: string,
  json: boolean,
): Promise<boolean> {
  if (!canPrompt(ctx) || json) {
    throw new ContextError(
      "Confirmation",
      `tracker release delete ${quoteWord(version)} ${quoteWord(org)} --yes`,
      ["--dry-run prints the request without sending it"],
    );
  }
  const { confirm, isCancel } = await import("@clack/prompts");
  const answer = await confirm({ message: `Delete release ${version} from ${org}?`, initialValue: false });
  if (isCancel(answer)) throw new PromptCancelled();
  return answer === true;
}

/** `tracker release delete <version> [<org>]`: asks (or --yes), then one DELETE (204). */
export default async function releaseDelete(
  this: TrackerContext,
  flags: DeleteFlags,
  version: string,
  target?: string,
): Promise<void> {
  const org = await resolveReleaseOrg(this, target, "tracker release delete <version>");
  const req: PlannedRequest = { method: "DELETE", path: releasePath(org, version) };
  if (flags.dryRun) return writeDryRun(this, req, flags.json);
  if (!flags.yes && !(await confirmDelete(this, version, org, flags.json))) {
    writeTip(this, `Kept release ${version} in ${org}; nothing was deleted.`);
    return;
  }
  await sendPlanned(this, org, req, v.unknown()).catch((err) => {
    throw releaseNotFound(err, org, version);
  });
  writeResult(this, flags.json, { deleted: version, org }, `Deleted release ${version} from ${org}.`);
}
