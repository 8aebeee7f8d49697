/**
 * Issue 32 §0 guard of `release set-commits --auto`: origin's owner/repo matches the connected
 * repository case-insensitively, with `.git` (and a trailing slash) stripped, in every URL form.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { mintOrgToken } from "../fake-api/routes/auth.ts";
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

describe("set-commits --auto matches origin (real CLI)", () => {
  for (const url of [
    "git@github.com:ACME/Web.git",
    "https://github.com/Acme/WEB.git",
    "ssh://git@github.com/acme/web.git/",
    "https://gitlab.example.com/group/Acme/Web",
  ]) {
    test(`${url} → the connected acme/web`, async () => {
      const { dir, head } = repoWithOrigin(url);
      const r = await runCli(["release", "set-commits", "web@1.5.0", "acme", "--auto"], {
        api,
        token: mintOrgToken(api.state, "acme", ["org:ci"]),
        cwd: dir,
      });
      expect(r.stderr).toBe("");
      expect(r.exitCode).toBe(0);
      // The repository is named as the service spells it, not as origin does.
      expect(puts()).toEqual([{ refs: [{ repository: "acme/web", commit: head }] }]);
    });
  }

  test("an origin of another repository is not connected: exit 23, the connected ones named, nothing sent", async () => {
    const { dir } = repoWithOrigin("git@github.com:acme/website.git");
    const r = await runCli(["release", "set-commits", "web@1.5.0", "acme", "--auto"], {
      api,
      token: mintOrgToken(api.state, "acme", ["org:ci"]),
      cwd: dir,
    });
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toContain("Repository 'acme/website'");
    expect(r.stderr).toContain("Connected repositories: acme/web, acme/api.");
    expect(puts()).toEqual([]);
  });
});
