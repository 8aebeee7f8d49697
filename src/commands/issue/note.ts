import type { TrackerContext } from "../../context.ts";
import { addNote } from "../../lib/api/issue-changes.ts";
import { ValidationError } from "../../lib/errors.ts";
import { resolveIssue } from "../../lib/issue/resolve.ts";
import { writeJson, writeLines } from "../../lib/output.ts";
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
    if (flags.json) return writeJson(this, { issue: issue.shortId, text, dryRun: true });
    return writeLines(this, [
      `Would add a note to ${issue.shortId}:`,
      ...text.split("\n").map((l) => `  ${l}`),
    ]);
  }
  const note = await addNote(this, org, issue.id, text);
  if (flags.json) return writeJson(this, note);
  writeLines(this, `Added a note to ${issue.shortId} (${org}).`);
}
