import type { TrackerContext } from "../../context.ts";
import { completionCandidates } from "../../lib/completion/candidates.ts";
import { writeJson, writeLines } from "../../lib/output.ts";

/**
 * `tracker __complete <words…>`: one candidate per line (`{"candidates": […]}` with --json, as for
 * every command); nothing on failure (completion is best effort).
 */
export default async function complete(
  this: TrackerContext,
  flags: { json: boolean },
  ...words: string[]
): Promise<void> {
  if (!this.commandTree) return;
  const root = await this.commandTree();
  const candidates = completionCandidates(this, root, words.length > 0 ? words : [""]);
  if (flags.json) writeJson(this, { candidates });
  else writeLines(this, candidates);
}
