/**
 * The body of `release set-commits` (API.md §18.2): `commits` read from the working tree
 * (`--local`), or `refs` for the server to fetch through its repository integration (`--auto`,
 * `--commit`). Only reads are sent here; the change itself is the command's one PUT.
 */
import type { TrackerContext } from "../../context.ts";
import { listRepos, previousReleaseCommit } from "../api/releases.ts";
import { CliError, ResolutionError } from "../errors.ts";
import { EXIT } from "../exit-codes.ts";
import type { CommitSpec } from "./flags.ts";
import { type LocalCommit, originRepoName, reachableFromHead, readCommits, readWorkTree } from "./git.ts";

/** What `--local` found. */
export interface LocalCommits {
  repository: string;
  head: string;
  /** The previous release with commits and its last commit, when there is one. */
  previous?: { version: string; commit: string };
  /** True when the last --initial-depth commits were taken instead of a range. */
  fellBack: boolean;
  commits: LocalCommit[];
}

const short = (sha: string) => sha.slice(0, 12);

/**
 * Commits of the working tree for `version`: from the previous release's last commit to HEAD, or
 * the last `depth` commits when there is no previous release. A previous commit that the
 * history does not reach is an error (a shallow clone says how to fetch more), never a wrong
 * range; `ignoreMissing` falls back to the last `depth` commits.
 */
export async function collectLocalCommits(
  ctx: TrackerContext,
  opts: { org: string; version: string; depth: number; ignoreMissing: boolean },
): Promise<LocalCommits> {
  const [tree, repository, previous] = await Promise.all([
    readWorkTree(ctx),
    originRepoName(ctx),
    previousReleaseCommit(ctx, opts.org, opts.version),
  ]);
  const base = { repository, head: tree.head, ...(previous ? { previous } : {}) };
  const lastCommits = async () => readCommits(ctx, { depth: opts.depth, repository });
  if (!previous) {
    const commits = await lastCommits();
    // The history is cut short: sending what is here would say the release has only these commits.
    if (tree.shallow && commits.length < opts.depth) throw shallowDepthError(commits.length, opts.depth);
    return { ...base, fellBack: false, commits };
  }
  if (await reachableFromHead(ctx, previous.commit)) {
    return {
      ...base,
      fellBack: false,
      commits: await readCommits(ctx, { from: previous.commit, repository }),
    };
  }
  const fallback = `send the last ${opts.depth} commits instead (--initial-depth to change how many)`;
  if (opts.ignoreMissing) {
    ctx.log.warn(
      `Commit ${short(previous.commit)} of the previous release ${previous.version} is not in this history; sending the last ${opts.depth} commits (--ignore-missing).`,
    );
    return { ...base, fellBack: true, commits: await lastCommits() };
  }
  if (tree.shallow) {
    throw new CliError(
      `This is a shallow clone, and its history does not reach commit ${short(previous.commit)}, where the previous release ${previous.version} ended; the commits of ${opts.version} cannot be determined from it.\n\nFetch the full history and run again:\n  git fetch --unshallow\nIn GitHub Actions, check out with \`fetch-depth: 0\` (actions/checkout). Or pass --ignore-missing to ${fallback}.`,
      EXIT.context,
    );
  }
  throw new ResolutionError(
    `Commit ${short(previous.commit)}`,
    `of the previous release ${previous.version} is not in this repository's history`,
    `Run this in the repository and branch that ${previous.version} was built from (git fetch to update it), or pass --ignore-missing to ${fallback}.`,
  );
}

/** A shallow clone that holds fewer than `depth` commits: the fetch that makes them visible. */
function shallowDepthError(seen: number, depth: number): CliError {
  return new CliError(
    `This is a shallow clone with ${seen} commit${seen === 1 ? "" : "s"} of history, and there is no previous release with commits: the last ${depth} commits (--initial-depth) cannot be read from it, and sending ${seen} would record a wrong range.\n\nFetch more history and run again:\n  git fetch --deepen=${depth - seen}\nor all of it:\n  git fetch --unshallow\nIn GitHub Actions, check out with \`fetch-depth: 0\` (actions/checkout); in GitLab CI set GIT_DEPTH: 0. Or pass --initial-depth ${seen} to send only the commits this clone has.`,
    EXIT.context,
  );
}

/**
 * `--auto`: HEAD of the working tree, in the organization's repository whose name matches
 * origin's repository name (case-insensitive); undefined, with a warning, when no connected
 * repository has that name (the caller then sends the local commits).
 */
export async function autoRef(ctx: TrackerContext, org: string): Promise<CommitSpec | undefined> {
  const [tree, origin, repos] = await Promise.all([
    readWorkTree(ctx),
    originRepoName(ctx),
    listRepos(ctx, org),
  ]);
  const repo = repos.find((r) => r.name.toLowerCase() === origin.toLowerCase());
  if (!repo) {
    // As sentry-cli does: without an integration to fetch them, the commits come from this tree.
    ctx.log.warn(
      `Repository '${origin}' is not connected to organization '${org}'${repos.length > 0 ? ` (connected: ${repos.map((r) => r.name).join(", ")})` : ""}; sending the commits of this working tree instead (as --local).`,
    );
    return undefined;
  }
  return { repository: repo.name, commit: tree.head };
}
