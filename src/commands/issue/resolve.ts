import type { TrackerContext } from "../../context.ts";
import { ValidationError } from "../../lib/errors.ts";
import { runChange } from "../../lib/issue/change.ts";
import type { ResolveFlags } from "./changes.ts";

/** `tracker issue resolve <issue…> [--in <version> | --in-next-release]`. */
export default async function issueResolve(this: TrackerContext, flags: ResolveFlags, ...args: string[]) {
  if (flags.in !== undefined && flags.inNextRelease) {
    throw new ValidationError("Use either --in <version> or --in-next-release, not both.", "in");
  }
  if (flags.in !== undefined && flags.in.trim() === "")
    throw new ValidationError("--in needs a release version.", "in");
  const statusDetails = flags.in
    ? { inRelease: flags.in.trim() }
    : flags.inNextRelease
      ? { inNextRelease: true }
      : undefined;
  const done = flags.in
    ? `resolved in ${flags.in.trim()}`
    : flags.inNextRelease
      ? "resolved in the next release"
      : "resolved";
  await runChange(this, { command: "tracker issue resolve", verb: "resolve", done }, flags, args, {
    status: "resolved",
    ...(statusDetails ? { statusDetails } : {}),
  });
}
