/**
 * `release set-commits` against real temporary git repositories: `--local` reads the working
 * tree's history (the PUT body is asserted exactly), a shallow clone that does not reach the
 * previous release is an error, `--auto` and `--commit` send refs.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mintOrgToken } from "../fake-api/routes/auth.ts";
import { findRelease, releaseStore } from "../fake-api/routes/releases.ts";
import { runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi({ latencyMs: 10 });
const ciToken = () => mintOrgToken(api.state, "acme", ["org:ci"]);
const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_COMMITTER_NAME: "CI",
  GIT_COMMITTER_EMAIL: "ci@example.com",
};

function git(cwd: string, args: string[], env: Record<string, string> = {}): string {
  const r = Bun.spawnSync(["git", ...args], { cwd, env: { ...GIT_ENV, ...env }, stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString().trim();
}

function commit(repo: string, n: number, who: [string, string], message: string, change: () => void): string {
  change();
  git(repo, ["add", "-A"]);
  const date = `2026-01-1${n}T10:00:00+00:00`;
  git(repo, ["commit", "-q", "-m", message], {
    GIT_AUTHOR_NAME: who[0],
    GIT_AUTHOR_EMAIL: who[1],
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_DATE: date,
  });
  return git(repo, ["rev-parse", "HEAD"]);
}

const ALICE: [string, string] = ["Alice Smith", "alice@example.com"];
const BOB: [string, string] = ["Bob Stone", "bob@example.com"];

/** A repository at <tmp>/acme/web with four commits; a clone of it (origin = acme/web) to work in. */
function makeRepos() {
  const root = tempDir("tracker-git-");
  const src = join(root, "acme", "web");
  mkdirSync(join(src, "src"), { recursive: true });
  git(src, ["init", "-q", "-b", "main"]);
  const w = (p: string, text: string) => () => writeFileSync(join(src, p), text);
  const c1 = commit(src, 1, ALICE, "Initial commit", w("README.md", "hi\n"));
  const c2 = commit(src, 2, BOB, "Add a and b", () => {
    w("src/a.ts", "a\n")();
    w("src/b.ts", "b\n")();
  });
  const c3 = commit(src, 3, ALICE, "Fix a, drop b\n\nLonger body.", () => {
    w("src/a.ts", "a2\n")();
    rmSync(join(src, "src/b.ts"));
  });
  const c4 = commit(src, 4, BOB, "Docs", () => {
    mkdirSync(join(src, "docs"));
    w("docs/x.md", "x\n")();
  });
  const work = join(root, "full");
  git(root, ["clone", "-q", `file://${src}`, work]);
  return { root, src, work, shas: [c1, c2, c3, c4] };
}

/** A new release of `project` in acme; its previous release with commits ends at `previous` (if given). */
function prepare(version: string, project: string, previous?: string) {
  const store = releaseStore(api.state);
  const p = api.state.projects.find((x) => x.org === "acme" && x.slug === project);
  if (previous) {
    const prev = findRelease(api.state, "acme", `${project}@1.5.0`);
    if (prev) prev.commits = [{ id: previous, repository: "acme/web" }];
  }
  store.releases.push({
    ...(findRelease(api.state, "acme", `${project}@1.5.0`) as NonNullable<ReturnType<typeof findRelease>>),
    id: store.nextId++,
    version,
    dateCreated: "2026-01-15T12:00:00.000Z",
    commits: [],
    deploys: [],
    newGroups: 0,
    projectIds: [p?.id as string],
  });
}

const puts = () => api.requests.filter((r) => r.method === "PUT").map((r) => JSON.parse(r.body));
const files = (...f: [string, string][]) => f.map(([type, path]) => ({ path, type }));

describe("set-commits --local", () => {
  test("from the previous release's last commit to HEAD, newest first, with authors, times and files", async () => {
    const { work, shas } = makeRepos();
    prepare("web@2.0.0", "web", shas[1]);
    const r = await runCli(["release", "set-commits", "web@2.0.0", "acme", "--local"], {
      api,
      token: ciToken(),
      cwd: work,
    });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      `Set the commits of web@2.0.0 in acme: 2 commits of acme/web since web@1.5.0 (${shas[1]?.slice(0, 12)}).\n`,
    );
    expect(puts()).toEqual([
      {
        commits: [
          {
            id: shas[3],
            repository: "acme/web",
            message: "Docs",
            author_name: "Bob Stone",
            author_email: "bob@example.com",
            timestamp: "2026-01-14T10:00:00+00:00",
            patch_set: files(["A", "docs/x.md"]),
          },
          {
            id: shas[2],
            repository: "acme/web",
            message: "Fix a, drop b\n\nLonger body.",
            author_name: "Alice Smith",
            author_email: "alice@example.com",
            timestamp: "2026-01-13T10:00:00+00:00",
            patch_set: files(["M", "src/a.ts"], ["D", "src/b.ts"]),
          },
        ],
      },
    ]);
    const release = api.requests.filter((q) => q.path !== "/api/0/organizations/acme/");
    expect(release.map((q) => `${q.method} ${q.path}`)).toEqual([
      "GET /api/0/organizations/acme/releases/web%402.0.0/previous-with-commits/",
      "PUT /api/0/organizations/acme/releases/web%402.0.0/",
    ]);
    expect(findRelease(api.state, "acme", "web@2.0.0")?.commits.map((c) => c.id)).toEqual([
      shas[3] as string,
      shas[2] as string,
    ]);
  });

  test("no previous release with commits: the last --initial-depth commits", async () => {
    const { work, shas } = makeRepos();
    prepare("api@2.0.0", "api");
    const r = await runCli(
      ["release", "set-commits", "api@2.0.0", "acme", "--local", "--initial-depth", "3", "--json"],
      {
        api,
        token: ciToken(),
        cwd: work,
      },
    );
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.sent.commits.map((c: { id: string }) => c.id)).toEqual([shas[3], shas[2], shas[1]]);
    expect(doc.sent.commits[2].patch_set).toEqual(files(["A", "src/a.ts"], ["A", "src/b.ts"]));
    expect(doc.release).toMatchObject({ version: "api@2.0.0", commitCount: 3 });
  });

  test("a shallow clone that does not reach the previous commit: a clear error, nothing sent", async () => {
    const { root, src, shas } = makeRepos();
    const shallow = join(root, "shallow");
    git(root, ["clone", "-q", "--depth", "1", `file://${src}`, shallow]);
    expect(git(shallow, ["rev-parse", "--is-shallow-repository"])).toBe("true");
    prepare("web@2.1.0", "web", shas[1]);
    const r = await runCli(["release", "set-commits", "web@2.1.0", "acme", "--local"], {
      api,
      token: ciToken(),
      cwd: shallow,
    });
    expect(r.exitCode).toBe(22);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(
      `This is a shallow clone, and its history does not reach commit ${shas[1]?.slice(0, 12)}`,
    );
    expect(r.stderr).toContain("git fetch --unshallow");
    expect(r.stderr).toContain("fetch-depth: 0");
    expect(r.stderr).toContain("--ignore-missing");
    expect(puts()).toEqual([]);

    api.reset();
    const fallback = await runCli(
      ["release", "set-commits", "web@2.1.0", "acme", "--local", "--ignore-missing"],
      {
        api,
        token: ciToken(),
        cwd: shallow,
      },
    );
    expect(fallback.exitCode).toBe(0);
    expect(fallback.stderr).toContain("sending the last 20 commits (--ignore-missing)");
    expect(puts().map((b) => b.commits.map((c: { id: string }) => c.id))).toEqual([[shas[3]]]);
  });

  test("a full clone without the previous commit: not found (exit 23); --dry-run reads but sends no change", async () => {
    const { work, shas } = makeRepos();
    prepare("web@2.2.0", "web", "f".repeat(40));
    const r = await runCli(["release", "set-commits", "web@2.2.0", "acme", "--local"], {
      api,
      token: ciToken(),
      cwd: work,
    });
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toStartWith(
      "Error: Commit ffffffffffff of the previous release web@1.5.0 is not in this repository's history.",
    );
    prepare("web@2.3.0", "web", shas[2]);
    const dry = await runCli(
      ["release", "set-commits", "web@2.3.0", "acme", "--local", "--dry-run", "--json"],
      {
        api,
        token: ciToken(),
        cwd: work,
      },
    );
    expect(dry.exitCode).toBe(0);
    const doc = JSON.parse(dry.stdout);
    expect(doc.requests[0]).toMatchObject({
      method: "PUT",
      path: "/api/0/organizations/acme/releases/web%402.3.0/",
    });
    expect(doc.requests[0].body.commits.map((c: { id: string }) => c.id)).toEqual([shas[3]]);
    expect(api.requests.filter((q) => q.method !== "GET")).toEqual([]);
  });

  test("outside a git repository: exit 22 before any change", async () => {
    prepare("web@2.4.0", "web");
    const r = await runCli(["release", "set-commits", "web@2.4.0", "acme", "--local"], {
      api,
      token: ciToken(),
      cwd: tempDir(),
    });
    expect(r.exitCode).toBe(22);
    expect(puts()).toEqual([]);
  });
});

describe("set-commits --auto / --commit", () => {
  test("--auto: HEAD in the connected repository named like origin, as refs", async () => {
    const { work, shas } = makeRepos();
    const r = await runCli(["release", "set-commits", "web@1.5.0", "acme", "--auto"], {
      api,
      token: ciToken(),
      cwd: work,
    });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(puts()).toEqual([{ refs: [{ repository: "acme/web", commit: shas[3] }] }]);
    expect(api.requestsTo("/api/0/organizations/acme/repos/")).toHaveLength(1);
  });

  test("--commit: refs with a previous commit; an unconnected repository is the service's 400", async () => {
    const r = await runCli(
      [
        "release",
        "set-commits",
        "web@1.5.0",
        "acme",
        "--commit",
        "acme/web@abc1234..def5678",
        "--commit",
        "acme/api@9f9f9f9",
      ],
      { api, token: ciToken() },
    );
    expect(r.exitCode).toBe(0);
    expect(puts()).toEqual([
      {
        refs: [
          { repository: "acme/web", commit: "def5678", previousCommit: "abc1234" },
          { repository: "acme/api", commit: "9f9f9f9" },
        ],
      },
    ]);
    const bad = await runCli(["release", "set-commits", "web@1.5.0", "acme", "--commit", "other/repo@abc"], {
      api,
      token: ciToken(),
    });
    expect(bad.exitCode).toBe(30);
    expect(bad.stderr).toContain("refs: Invalid repository names: other/repo");
  });

  test("exactly one mode, and well-formed --commit values, before any request", async () => {
    for (const args of [
      [],
      ["--auto", "--local"],
      ["--commit", "nope"],
      ["--commit", "a/b@x..y..z"],
      ["--commit", "acme/web@abc1234", "--ignore-missing"],
    ]) {
      const r = await runCli(["release", "set-commits", "web@1.5.0", "acme", ...args], {
        api,
        token: ciToken(),
      });
      expect({ args, code: r.exitCode }).toEqual({ args, code: 21 });
    }
    expect(api.requests).toEqual([]);
  });
});

describe("issue 31: the CI path", () => {
  test("a shallow clone (--depth 2) without a previous release never sends the 2 commits it can see: it names the fetch", async () => {
    const { root, src, shas } = makeRepos();
    const shallow = join(root, "shallow2");
    git(root, ["clone", "-q", "--depth", "2", `file://${src}`, shallow]);
    expect(git(shallow, ["rev-parse", "--is-shallow-repository"])).toBe("true");
    prepare("api@3.0.0", "api");
    const r = await runCli(["release", "set-commits", "api@3.0.0", "acme", "--local"], {
      api,
      token: ciToken(),
      cwd: shallow,
    });
    expect(r.exitCode).toBe(22);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("This is a shallow clone with 2 commits of history");
    expect(r.stderr).toContain("git fetch --deepen=18");
    expect(r.stderr).toContain("git fetch --unshallow");
    expect(r.stderr).toContain("--initial-depth 2");
    expect(puts()).toEqual([]);
    // Asked for no more than it has, the clone is enough.
    api.reset();
    const two = await runCli(
      ["release", "set-commits", "api@3.0.0", "acme", "--local", "--initial-depth", "2", "--json"],
      { api, token: ciToken(), cwd: shallow },
    );
    expect(two.exitCode).toBe(0);
    expect(puts().map((b) => b.commits.map((c: { id: string }) => c.id))).toEqual([[shas[3], shas[2]]]);
  });

  test("--auto with origin's repository not connected: the local commits are sent instead, saying so", async () => {
    const { work, shas } = makeRepos();
    // origin is renamed to a repository the organization does not have.
    git(work, ["remote", "set-url", "origin", "git@gitlab.com:acme-group/platform/web.git"]);
    prepare("api@3.1.0", "api");
    const r = await runCli(
      ["release", "set-commits", "api@3.1.0", "acme", "--auto", "--initial-depth", "2"],
      {
        api,
        token: ciToken(),
        cwd: work,
      },
    );
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toStartWith(
      "Warning: Repository 'acme-group/platform/web' is not connected to organization 'acme' (connected: ",
    );
    expect(r.stderr).toContain("sending the commits of this working tree instead (as --local)");
    const [body] = puts();
    expect(body.refs).toBeUndefined();
    expect(body.commits.map((c: { id: string; repository: string }) => [c.id, c.repository])).toEqual([
      [shas[3], "acme-group/platform/web"],
      [shas[2], "acme-group/platform/web"],
    ]);
  });

  test("--auto matches origin's name case-insensitively, from an scp-style URL", async () => {
    const { work, shas } = makeRepos();
    git(work, ["remote", "set-url", "origin", "git@github.com:ACME/Web.git"]);
    const r = await runCli(["release", "set-commits", "web@1.5.0", "acme", "--auto"], {
      api,
      token: ciToken(),
      cwd: work,
    });
    expect(r.stderr).toBe("");
    expect(puts()).toEqual([{ refs: [{ repository: "acme/web", commit: shas[3] }] }]);
  });
});
