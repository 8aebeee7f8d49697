import type { TrackerContext } from "../../context.ts";
import { type CompletionShell, completionScript } from "../../lib/completion/scripts.ts";
import { writeLines } from "../../lib/output.ts";

/** `tracker completion <shell>`. */
export default function completion(this: TrackerContext, _flags: unknown, shell: CompletionShell): void {
  writeLines(this, completionScript(shell));
}
