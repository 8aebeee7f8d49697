import type { TrackerContext } from "../../context.ts";
import { runChange } from "../../lib/issue/change.ts";
import type { ChangeCommandFlags } from "./changes.ts";

/** `tracker issue unresolve <issue…>` (also `reopen`). */
export default async function issueUnresolve(
  this: TrackerContext,
  flags: ChangeCommandFlags,
  ...args: string[]
) {
  await runChange(
    this,
    { command: "tracker issue unresolve", verb: "reopen", done: "reopened" },
    flags,
    args,
    {
      status: "unresolved",
      substatus: "ongoing",
    },
  );
}
