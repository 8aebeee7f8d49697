/**
 * A release name for this build, found as sentry-cli's `releases propose-version` finds it: the
 * first non-empty of SENTRY_RELEASE and the CI systems' commit variables, else HEAD's sha.
 */
import type { TrackerContext } from "../../context.ts";
import { ContextError } from "../errors.ts";
import { runGit } from "./git.ts";

/** The variables asked, in sentry-cli's order (Heroku, AWS CodeBuild, CircleCI, Cloudflare Pages, App Engine). */
export const RELEASE_NAME_VARIABLES = [
  "SENTRY_RELEASE",
  "SOURCE_VERSION",
  "HEROKU_BUILD_COMMIT",
  "HEROKU_SLUG_COMMIT",
  "CODEBUILD_RESOLVED_SOURCE_VERSION",
  "CIRCLE_SHA1",
  "CF_PAGES_COMMIT_SHA",
  "GAE_DEPLOYMENT_ID",
] as const;

/** A proposed release name and where it came from (a variable's name, or `git`). */
export interface ProposedVersion {
  version: string;
  source: string;
}

/** The proposed release name; outside a repository with no variable set, a ContextError. */
export async function proposeVersion(
  ctx: Pick<TrackerContext, "env" | "cwd" | "log">,
): Promise<ProposedVersion> {
  for (const name of RELEASE_NAME_VARIABLES) {
    const value = ctx.env[name]?.trim();
    if (value) return { version: value, source: name };
  }
  const r = await runGit(ctx, ["rev-parse", "--verify", "HEAD"]);
  const head = r.stdout.trim();
  if (r.code !== 0 || !/^[0-9a-f]{40,64}$/.test(head)) {
    throw new ContextError(
      "A release name",
      "set SENTRY_RELEASE, or run inside a git repository with commits",
      [`CI variables read: ${RELEASE_NAME_VARIABLES.slice(1).join(", ")}`],
    );
  }
  return { version: head, source: "git" };
}
