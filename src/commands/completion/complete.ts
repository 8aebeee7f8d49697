import type { TrackerContext } from "../../context.ts";
import { completionCandidates } from "../../lib/completion/candidates.ts";
import { writeLines } from "../../lib/output.ts";

/** `tracker __complete <words…>`: one candidate per line; nothing on failure (completion is best effort). */
export default async function complete(
  this: TrackerContext,
  _flags: unknown,
  ...words: string[]
): Promise<void> {
  if (!this.commandTree) return;
  const root = await this.commandTree();
  writeLines(this, completionCandidates(this, root, words.length > 0 ? words : [""]));
}
