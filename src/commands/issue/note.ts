import type { TrackerContext } from "../../context.ts";
import { addNote } from "../../lib/api/issue-changes.ts";
import { ValidationError } from "../../lib/errors.ts";
import { resolveIssue } from "../../lib/issue/resolve.ts";
import { writeResult } from "../../lib/view/write.ts";
import type { NoteFlags } from "./changes.ts";

/** `tracker issue note <issue> <text|->`. */
export default async function issueNote(
  this: TrackerContext,
  flags: NoteFlags,
  ref: string,
  rawText: string,
) {
  const text = (rawText === "-" ? await this.readStdin() : rawText).trim();
  if (text === "") throw new ValidationError("The note is empty.", "text");
  const { org, issue } = await resolveIssue(this, ref, { command: "tracker issue note" });
  if (flags.dryRun) {
    // Its document names the note, not the request (documented before lib/dry-run.ts): kept, and
    // said as a result.
    return writeResult(this, flags.json, { issue: issue.shortId, text, dryRun: true }, [
      `Would add a note to ${issue.shortId}:`,
      ...text.split("\n").map((l) => `  ${l}`),
    ]);
  }
  const note = await addNote(this, org, issue.id, text);
  writeResult(this, flags.json, note, `Added a note to ${issue.shortId} (${org}).`);
}
