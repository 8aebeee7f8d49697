/**
 * Issue 32 §0 guard of `release set-commits --auto`: origin's owner/repo matches the connected
 * repository case-insensitively (either side may have capitals), with `.git` (and a trailing
 * slash) stripped, in the scp, https and ssh URL forms; the refs name the service's spelling.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { mintOrgToken } from "../fake-api/routes/auth.ts";
import { releaseStore } from "../fake-api/routes/releases.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "CI",
  GIT_AUTHOR_EMAIL: "ci@example.com",
  GIT_COMMITTER_NAME: "CI",
  GIT_COMMITTER_EMAIL: "ci@example.com",
};

function git(cwd: string, args: string[]): string {
  const r = Bun.spawnSync(["git", ...args], { cwd, env: GIT_ENV, stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString().trim();
}

/** A one-commit repository whose origin is `url`; returns its directory and HEAD. */
function repoWithOrigin(url: string): { dir: string; head: string } {
  const dir = tempDir("tracker-git-");
  git(dir, ["init", "-q", "-b", "main"]);
  writeFileSync(join(dir, "README.md"), "hi\n");
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-q", "-m", "Initial commit"]);
  git(dir, ["remote", "add", "origin", url]);
  return { dir, head: git(dir, ["rev-parse", "HEAD"]) };
}

const puts = () => api.requests.filter((r) => r.method === "PUT").map((r) => JSON.parse(r.body));

/** The service spells the connected repository with capitals (as GitHub's integration keeps them). */
function connectAcmeWebAs(name: string): void {
  const repo = releaseStore(api.state).repos.acme?.find((r) => r.name.toLowerCase() === "acme/web");
  if (!repo) throw new Error("seed changed");
  repo.name = name;
}

describe("set-commits --auto matches origin (real CLI)", () => {
  for (const url of [
    "git@github.com:acme/WEB.git",
    "https://github.com/ACME/web.git",
    "ssh://git@github.com/acme/web.git/",
  ]) {
    test(`${url} → the connected Acme/Web, named as the service spells it`, async () => {
      connectAcmeWebAs("Acme/Web");
      const { dir, head } = repoWithOrigin(url);
      const r = await runCli(["release", "set-commits", "web@1.5.0", "acme", "--auto"], {
        api,
        token: mintOrgToken(api.state, "acme", ["org:ci"]),
        cwd: dir,
      });
      expect(r.stderr).toBe("");
      expect(r.exitCode).toBe(0);
      expect(puts()).toEqual([{ refs: [{ repository: "Acme/Web", commit: head }] }]);
    });
  }
});
