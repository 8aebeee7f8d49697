/**
 * parseGitLog reads `git log -z --name-status` output, where every field ends with a NUL: a
 * commit message can carry the old record separator (0x1e), a forged sha line or lines that look
 * like file statuses, and still stays the text of its own commit. Table cases, then one real git.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseGitLog, readCommits } from "../../../src/lib/release/git.ts";
import { tempDir } from "../../helpers/cli.ts";

const A = "a".repeat(40);
const B = "b".repeat(40);
const FORGED = "f".repeat(40);
const WHEN = "2026-01-12T10:00:00+00:00";

/** One commit as git prints it with -z: fields, the empty end field, then "\n" + status/path pairs. */
function record(id: string, message: string, files: [string, string][] = []): string {
  const head = `${id}\0Ann\0ann@example.com\0${WHEN}\0${message}\0\0`;
  if (files.length === 0) return head;
  return `${head}\n${files.map(([s, p]) => `${s}\0${p}\0`).join("")}`;
}

describe("parseGitLog", () => {
  const cases: [string, string, { id: string; message: string; files: string[] }[]][] = [
    [
      "one commit with files",
      record(A, "Fix\n", [
        ["M", "src/a.ts"],
        ["A", "b.ts"],
      ]),
      [{ id: A, message: "Fix", files: ["M src/a.ts", "A b.ts"] }],
    ],
    [
      "a message with the record separator and a forged sha line",
      record(A, `x\x1e${FORGED}\nEve\n`) + record(B, "real\n"),
      [
        { id: A, message: `x\x1e${FORGED}\nEve`, files: [] },
        { id: B, message: "real", files: [] },
      ],
    ],
    [
      "a message whose lines look like statuses",
      record(A, "M\tetc/passwd\nD\tx\n", [["D", "gone.ts"]]),
      [{ id: A, message: "M\tetc/passwd\nD\tx", files: ["D gone.ts"] }],
    ],
    [
      "paths with tabs, newlines and status-like names",
      record(A, "m\n", [
        ["A", "t\tab"],
        ["M", "new\nline"],
        ["A", "M"],
      ]) + record(B, "n\n", [["T", "link"]]),
      [
        { id: A, message: "m", files: ["A t\tab", "M new\nline", "A M"] },
        { id: B, message: "n", files: ["M link"] },
      ],
    ],
    [
      "an empty commit between two",
      record(A, "a\n", [["M", "x"]]) + record(FORGED, "empty\n") + record(B, "b\n", [["D", "y"]]),
      [
        { id: A, message: "a", files: ["M x"] },
        { id: FORGED, message: "empty", files: [] },
        { id: B, message: "b", files: ["D y"] },
      ],
    ],
    ["no output", "", []],
  ];
  test.each(cases)("%s", (_name, text, want) => {
    const got = parseGitLog(text, "acme/web").map((c) => ({
      id: c.id,
      message: c.message,
      files: c.patch_set.map((f) => `${f.type} ${f.path}`),
    }));
    expect(got).toEqual(want);
  });

  test("authors and times are the commit's own", () => {
    const [c] = parseGitLog(record(A, "x\n"), "acme/web");
    expect(c).toMatchObject({
      author_name: "Ann",
      author_email: "ann@example.com",
      timestamp: WHEN,
      repository: "acme/web",
    });
  });
});

test("real git: a commit message with the record separator forges no commit", async () => {
  const repo = tempDir("tracker-git-");
  const env = {
    ...process.env,
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_NAME: "Ann",
    GIT_AUTHOR_EMAIL: "ann@example.com",
    GIT_COMMITTER_NAME: "CI",
    GIT_COMMITTER_EMAIL: "ci@example.com",
  };
  const git = (...args: string[]) => {
    const r = Bun.spawnSync(["git", ...args], { cwd: repo, env, stderr: "pipe" });
    expect(r.exitCode).toBe(0);
    return r.stdout.toString().trim();
  };
  git("init", "-q", "-b", "main");
  writeFileSync(join(repo, "a.txt"), "1\n");
  git("add", "-A");
  git("commit", "-q", "-m", "first");
  writeFileSync(join(repo, "a.txt"), "2\n");
  git("add", "-A");
  const hostile = `second\x1e${FORGED}\x00Eve\x00eve@example.com\x00${WHEN}\x00forged\x00\nA\tevil.ts`;
  git("commit", "-q", "-m", hostile.replaceAll("\x00", "")); // an argument cannot carry NUL
  const commits = await readCommits(
    {
      env: { PATH: process.env.PATH, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
      cwd: repo,
      log: { debug() {} } as never,
    },
    { depth: 5, repository: "acme/web" },
  );
  expect(commits.map((c) => c.id)).toEqual([git("rev-parse", "HEAD"), git("rev-parse", "HEAD~1")]);
  expect(commits[0]?.patch_set).toEqual([{ path: "a.txt", type: "M" }]);
  expect(commits[0]?.message).toContain("forged");
  expect(commits.some((c) => c.author_name === "Eve")).toBe(false);
});
