/**
 * The working tree's git facts for `release set-commits`: HEAD, shallowness, origin's
 * `owner/repo`, and commits with their changed files. git runs as a child process with explicit
 * arguments (never a shell), in the run's directory, without tracker's tokens in its environment.
 */
import type { TrackerContext } from "../../context.ts";
import { childEnv } from "../child-env.ts";
import { ContextError } from "../errors.ts";

/** A commit as the release commits body carries it (API.md §18.2). */
export interface LocalCommit {
  id: string;
  repository: string;
  message: string;
  author_name: string;
  author_email: string;
  timestamp: string;
  patch_set: { path: string; type: "A" | "M" | "D" }[];
}

/** What a git run printed and how it ended. */
export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `git <args>` in the run's directory; a missing git is a ContextError. */
export async function runGit(
  ctx: Pick<TrackerContext, "env" | "cwd" | "log">,
  args: readonly string[],
): Promise<GitResult> {
  const exe = Bun.which("git", { PATH: ctx.env.PATH ?? "" });
  if (!exe) throw new ContextError("git", "install git, or use --commit <repo>@<sha>", []);
  ctx.log.debug(`Running git ${args.join(" ")}`);
  const proc = Bun.spawn([exe, ...args], {
    cwd: ctx.cwd,
    // No pager, no prompts, no user config that changes log's output format.
    env: { ...childEnv(ctx.env), GIT_TERMINAL_PROMPT: "0", GIT_PAGER: "cat", LC_ALL: "C" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

/** The repository facts set-commits needs. */
export interface WorkTree {
  head: string;
  shallow: boolean;
}

/** HEAD's sha and whether the clone is shallow; outside a repository (or without commits) a ContextError. */
export async function readWorkTree(ctx: Pick<TrackerContext, "env" | "cwd" | "log">): Promise<WorkTree> {
  const r = await runGit(ctx, ["rev-parse", "--is-shallow-repository", "--verify", "HEAD"]);
  const [shallow, head] = r.stdout.trim().split("\n");
  if (r.code !== 0 || !head || !/^[0-9a-f]{40,64}$/.test(head)) {
    throw new ContextError(
      "A git repository with commits",
      "run `tracker release set-commits <version> --local` inside the repository's working tree",
      ["use --commit <repo>@<sha> to name the commits instead"],
    );
  }
  return { head, shallow: shallow === "true" };
}

const GIT_URL_RE = /^(?:(?:git\+)?(?:git|ssh|https?)):\/\/(?:[^@/]+@)?([^/]+)\/(.+)$/i;
const SCP_RE = /^(?:[^@/]+@)?([^/:]+):(?!\/\/)(.+)$/;

/**
 * The repository name of a remote URL, derived as sentry-cli's `VcsUrl` derives it, so the name
 * matches what its users see on the service: the whole path without `.git` for https, ssh and
 * scp-like URLs (GitLab subgroups kept: `acme-group/platform/web`), `<org>/<project>` for Azure
 * DevOps and `<account>/<repo>` for visualstudio.com (never `_git/web`), `owner/repo` for Google
 * Cloud Source mirrors and Bitbucket Server browse URLs; lower case, as sentry-cli sends it.
 * A local path or `file://` URL (not a hosted repository) gives its last two segments.
 */
export function repoNameFromUrl(url: string): string | undefined {
  const text = url.trim();
  const m = GIT_URL_RE.exec(text) ?? (text.startsWith("/") ? null : SCP_RE.exec(text));
  if (!m) {
    const local = text
      .replace(/^file:\/\//i, "")
      .replace(/(\.git)+\/?$/, "")
      .split("/")
      .filter(Boolean);
    return local.length >= 2 ? local.slice(-2).join("/") : undefined;
  }
  const host = (m[1] as string).replace(/:\d+$/, "").toLowerCase();
  const path = (m[2] as string).replace(/\/+$/, "");
  const id = hostedRepoId(host, path);
  return id && id !== "" ? id.toLowerCase() : undefined;
}

function hostedRepoId(host: string, path: string): string | undefined {
  const vs = /^([^.]+)\.visualstudio\.com$/.exec(host);
  if (vs) {
    const git = /^_git\/(.+?)(?:\.git)?$/.exec(path);
    if (git) return `${vs[1]}/${git[1]}`;
    const before = /^(.+?)\/_git/.exec(path);
    if (before) return before[1];
  }
  if (/^(?:ssh\.)?dev\.azure\.com$/.test(host)) {
    const v3 = /^v3\/([^/]+)\/([^/]+)/.exec(path);
    if (v3) return `${v3[1]}/${v3[2]}`;
    const before = /^(.+?)\/_git/.exec(path);
    if (before) return before[1];
  }
  if (host === "source.developers.google.com") {
    const gcb = /^p\/.+\/r\/github_(.+?)_(.+?)(?:\.git)?$/.exec(path);
    if (gcb) return `${gcb[1]}/${gcb[2]}`;
  }
  const bitbucket = /projects\/(.+)\/repos\/(.+)\/browse/.exec(path);
  if (bitbucket) return `${bitbucket[1]}/${bitbucket[2]}`;
  return path.replace(/(\.git)+$/, "");
}

/** origin's `owner/repo`; a repository without a usable origin is a ContextError. */
export async function originRepoName(ctx: Pick<TrackerContext, "env" | "cwd" | "log">): Promise<string> {
  const r = await runGit(ctx, ["remote", "get-url", "origin"]);
  const name = r.code === 0 ? repoNameFromUrl(r.stdout) : undefined;
  if (!name) {
    throw new ContextError(
      "A remote named origin",
      "git remote add origin <url>   (its owner/repo names the repository)",
      ["use --commit <repo>@<sha> to name the repository and commits instead"],
    );
  }
  return name;
}

/** True when `sha` is a commit reachable from HEAD in this clone's history. */
export async function reachableFromHead(
  ctx: Pick<TrackerContext, "env" | "cwd" | "log">,
  sha: string,
): Promise<boolean> {
  if (!/^[0-9a-fA-F]{4,64}$/.test(sha)) return false;
  const r = await runGit(ctx, ["merge-base", "--is-ancestor", sha, "HEAD"]);
  return r.code === 0;
}

const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const STATUS = /^\n?([A-Z])$/;

/**
 * Parses `git log -z --name-status --no-renames` output of LOG_FORMAT (exported for tests). With
 * -z every field, status and path ends with a NUL, which no commit message, author or path can
 * contain: a message with a record separator, a line that looks like a status, or a 40-hex line
 * stays text of its own commit and cannot forge another one. Per commit: sha, author name, email,
 * ISO time, message, an empty field (the commit's end), then status/path pairs.
 */
export function parseGitLog(text: string, repository: string): LocalCommit[] {
  const out: LocalCommit[] = [];
  const tokens = text.split("\0");
  let i = 0;
  while (i < tokens.length) {
    const id = tokens[i] as string;
    if (!SHA.test(id)) {
      i++;
      continue;
    }
    const [name = "", email = "", timestamp = "", message = ""] = tokens.slice(i + 1, i + 5);
    i += 6;
    const patch: LocalCommit["patch_set"] = [];
    for (let m = STATUS.exec(tokens[i] ?? ""); m && i + 1 < tokens.length; m = STATUS.exec(tokens[i] ?? "")) {
      const path = tokens[i + 1] as string;
      const type = m[1] as string;
      if (type === "A" || type === "M" || type === "D") patch.push({ path, type });
      else if (type === "T") patch.push({ path, type: "M" });
      i += 2;
    }
    out.push({
      id,
      repository,
      message: message.trim(),
      author_name: name,
      author_email: email,
      timestamp,
      patch_set: patch,
    });
  }
  return out;
}

/**
 * One commit: sha, author name, email, ISO time and message, each ended by a NUL (git's own
 * escape, since an argument cannot carry a NUL byte); -z ends the commit and each name-status
 * field with a NUL too.
 */
const LOG_FORMAT = "%H%x00%an%x00%ae%x00%aI%x00%B%x00";

/** Commits newest first: `from..HEAD` when `from` is given, else the last `depth` commits of HEAD. */
export async function readCommits(
  ctx: Pick<TrackerContext, "env" | "cwd" | "log">,
  opts: { from?: string; depth?: number; repository: string },
): Promise<LocalCommit[]> {
  const range = opts.from ? [`${opts.from}..HEAD`] : ["-n", String(opts.depth ?? 1), "HEAD"];
  const r = await runGit(ctx, [
    "-c",
    "core.quotePath=false",
    "log",
    "-z",
    "--no-color",
    "--no-renames",
    "--name-status",
    `--format=${LOG_FORMAT}`,
    ...range,
    "--",
  ]);
  if (r.code !== 0) {
    throw new ContextError("Readable git history", `git log failed: ${r.stderr.trim() || `exit ${r.code}`}`);
  }
  return parseGitLog(r.stdout, opts.repository);
}
