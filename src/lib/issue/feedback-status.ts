/**
 * `feedback resolve|unresolve|spam` (API.md §22.8): a status change of the feedback's issue, run
 * like the issue changes (named feedback only, dry run, report). Spam is `ignored` forever, as
 * Sentry's own UI sends it.
 */
import type { TrackerContext } from "../../context.ts";
import { runChange, type ChangeSpec } from "./change.ts";

/** Sets the status of the named feedback. */
export async function setFeedbackStatus(
  ctx: TrackerContext,
  spec: ChangeSpec,
  flags: { json: boolean; dryRun: boolean },
  refs: readonly string[],
  status: "resolved" | "unresolved" | "ignored",
): Promise<void> {
  // Named feedback only (no --query): the period and limit are never used.
  await runChange(ctx, spec, { ...flags, yes: false, period: "14d", limit: refs.length }, refs, {
    status,
    ...(status === "ignored" ? { substatus: "archived_forever" } : {}),
  });
}
