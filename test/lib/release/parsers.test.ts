/** Table tests of the pure parsers of `release set-commits`: repository names, --commit, git log. */
import { describe, expect, test } from "bun:test";
import { ValidationError } from "../../../src/lib/errors.ts";
import { repoNameFromUrl } from "../../../src/lib/release/git.ts";
import { parseCommitSpec } from "../../../src/lib/release/flags.ts";

describe("repoNameFromUrl (as sentry-cli's VcsUrl)", () => {
  test.each([
    ["https://github.com/acme/web.git", "acme/web"],
    ["https://github.com/Acme/Web", "acme/web"],
    ["https://user:secret@github.com/acme/web.git", "acme/web"],
    ["git@github.com:acme/web.git", "acme/web"],
    ["github.com:acme/web", "acme/web"],
    ["ssh://git@github.com/acme/web.git", "acme/web"],
    ["ssh://git@github.example.com:2222/acme/web.git", "acme/web"],
    ["git+ssh://git@github.com/acme/web.git", "acme/web"],
    ["git://github.com/acme/web.git", "acme/web"],
    ["https://github.com/acme/web.git/", "acme/web"],
    ["https://github.com/acme/web.git.git", "acme/web"],
    ["git@gitlab.com:acme-group/platform/web.git", "acme-group/platform/web"],
    ["https://gitlab.com/acme-group/platform/web.git", "acme-group/platform/web"],
    ["https://gitlab.example.com:8443/acme-group/platform/web", "acme-group/platform/web"],
    ["https://dev.azure.com/acme/platform/_git/web", "acme/platform"],
    ["git@ssh.dev.azure.com:v3/acme/platform/web", "acme/platform"],
    ["https://acme.visualstudio.com/_git/web", "acme/web"],
    ["https://acme.visualstudio.com/DefaultCollection/Platform/_git/web", "defaultcollection/platform"],
    ["https://source.developers.google.com/p/my-proj/r/github_acme_web", "acme/web"],
    ["https://bitbucket.example.com/projects/ACME/repos/web/browse", "acme/web"],
    ["https://bitbucket.org/acme/web.git", "acme/web"],
    ["file:///srv/git/acme/web", "acme/web"],
    ["/srv/git/acme/web.git", "acme/web"],
  ])("%s → %s", (url, name) => {
    expect(repoNameFromUrl(url)).toBe(name);
  });

  test("never `_git/<repo>` for Azure DevOps; nothing usable gives undefined", () => {
    for (const u of [
      "https://dev.azure.com/acme/platform/_git/web",
      "https://acme.visualstudio.com/P/_git/web",
    ]) {
      expect(repoNameFromUrl(u)).not.toContain("_git");
    }
    expect(repoNameFromUrl("web")).toBeUndefined();
    expect(repoNameFromUrl("")).toBeUndefined();
  });
});

describe("parseCommitSpec", () => {
  test.each([
    ["acme/web@4f2a9c1", { repository: "acme/web", commit: "4f2a9c1" }],
    ["acme/web@abc..def", { repository: "acme/web", commit: "def", previousCommit: "abc" }],
    ["  acme/web@main  ", { repository: "acme/web", commit: "main" }],
    ["acme-group/platform/web@v1.2.3", { repository: "acme-group/platform/web", commit: "v1.2.3" }],
    ["me@example/repo@abc", { repository: "me@example/repo", commit: "abc" }],
  ])("%s", (raw, spec) => {
    expect(parseCommitSpec(raw)).toEqual(spec);
  });

  test.each([
    "nope",
    "@abc",
    "acme/web@",
    "acme/web@..def",
    "acme/web@a..b..c",
    "acme/web@abc..",
    "acme/web@a b",
  ])("%s is refused", (raw) => {
    expect(() => parseCommitSpec(raw)).toThrow(ValidationError);
  });
});
