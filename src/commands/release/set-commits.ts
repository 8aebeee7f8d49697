import type { TrackerContext } from "../../context.ts";
import {
  type PlannedRequest,
  Release,
  releaseNotFound,
  releasePath,
  sendPlanned,
} from "../../lib/api/releases.ts";
import { ValidationError } from "../../lib/errors.ts";
import { writeTip } from "../../lib/output.ts";
import { autoRef, collectLocalCommits } from "../../lib/release/commits.ts";
import { writeDryRun } from "../../lib/release/dry-run.ts";
import { parseCommitSpec } from "../../lib/release/flags.ts";
import { resolveReleaseOrg } from "../../lib/release/target.ts";
import { writeResult } from "../../lib/view/write.ts";
import type { SetCommitsFlags } from "./changes.ts";

/** The body of the PUT and a one-line account of it. */
async function plan(
  ctx: TrackerContext,
  flags: SetCommitsFlags,
  org: string,
  version: string,
): Promise<{ body: Record<string, unknown>; summary: string }> {
  if (flags.clear) return { body: { refs: [] }, summary: "an empty list of refs" };
  const auto = flags.auto ? await autoRef(ctx, org) : undefined;
  if (flags.local || (flags.auto && !auto)) {
    const found = await collectLocalCommits(ctx, {
      org,
      version,
      depth: flags.initialDepth,
      ignoreMissing: flags.ignoreMissing,
    });
    const n = found.commits.length;
    const from =
      found.previous && !found.fellBack
        ? `since ${found.previous.version} (${found.previous.commit.slice(0, 12)})`
        : `(the last ${flags.initialDepth} at most)`;
    if (n === 0) writeTip(ctx, `No commits ${from}: the release's commit list will be empty.`);
    return {
      body: { commits: found.commits },
      summary: `${n} commit${n === 1 ? "" : "s"} of ${found.repository} ${from}`,
    };
  }
  const refs = auto ? [auto] : (flags.commit ?? []).map(parseCommitSpec);
  const names = refs.map(
    (r) => `${r.repository}@${r.previousCommit ? `${r.previousCommit}..` : ""}${r.commit}`,
  );
  return { body: { refs }, summary: `refs ${names.join(", ")} (the service fetches their commits)` };
}

/** `tracker release set-commits <version> [<org>] (--auto | --local | --commit …)`: one PUT. */
export default async function releaseSetCommits(
  this: TrackerContext,
  flags: SetCommitsFlags,
  version: string,
  target?: string,
): Promise<void> {
  const modes = [flags.auto, flags.local, (flags.commit ?? []).length > 0, flags.clear].filter(
    Boolean,
  ).length;
  if (modes !== 1) {
    throw new ValidationError(
      "Give exactly one of --auto, --local, --clear or --commit <repo>@[<from>..]<to>.",
      "commit",
    );
  }
  if (flags.ignoreMissing && !flags.local && !flags.auto)
    throw new ValidationError("--ignore-missing goes with --local (or --auto).", "ignoreMissing");
  // Malformed --commit values fail before anything is resolved or asked.
  for (const c of flags.commit ?? []) parseCommitSpec(c);
  const org = await resolveReleaseOrg(this, target, "tracker release set-commits <version>");
  const { body, summary } = await plan(this, flags, org, version);
  const req: PlannedRequest = { method: "PUT", path: releasePath(org, version), body };
  if (flags.dryRun) return writeDryRun(this, req, flags.json);
  const release = await sendPlanned(this, org, req, Release).then(
    (r) => r.data,
    (err) => {
      throw releaseNotFound(err, org, version);
    },
  );
  writeResult(
    this,
    flags.json,
    { version, org, sent: body, release },
    `Set the commits of ${version} in ${org}: ${summary}.`,
  );
}
