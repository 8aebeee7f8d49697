/**
 * Issue 32 §0: table test of `hereRoot`, the project tree `defaults set|clear --here` applies to:
 * the nearest version-control root, else the outermost project marker, never the home directory.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { hereRoot } from "../../../src/commands/defaults/here.ts";
import { ValidationError } from "../../../src/lib/errors.ts";
import { tempDir } from "../../helpers/cli.ts";
import { createTestContext } from "../../helpers/context.ts";

/** A temp root holding `home/` and `outside/`, with the given files (paths from the root). */
function tree(files: string[]): string {
  const root = tempDir("tracker-here-");
  for (const f of [...files, "home/.keep", "outside/.keep"]) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    if (f.endsWith("/")) mkdirSync(join(root, f), { recursive: true });
    else writeFileSync(join(root, f), "x");
  }
  return root;
}

const FILES = [
  "home/proj/.git/HEAD",
  "home/proj/src/deep/",
  "home/proj/packages/svc/.git/HEAD",
  "home/proj/packages/svc/lib/",
  "home/mono/package.json",
  "home/mono/apps/web/package.json",
  "home/mono/apps/web/src/",
  "home/hg/.hg/",
  "home/loose/dir/",
  "outside/repo/.git/HEAD",
  "outside/repo/a/",
  "outside/plain/",
];

describe("hereRoot", () => {
  const ok: [string, string][] = [
    ["home/proj", "home/proj"],
    ["home/proj/src/deep", "home/proj"],
    ["home/proj/packages", "home/proj"],
    ["home/proj/packages/svc", "home/proj/packages/svc"],
    ["home/proj/packages/svc/lib", "home/proj/packages/svc"],
    ["home/mono/apps/web/src", "home/mono"],
    ["home/hg", "home/hg"],
    ["outside/repo/a", "outside/repo"],
  ];
  for (const [cwd, root] of ok) {
    test(`${cwd} → ${root}`, () => {
      const base = tree(FILES);
      const { ctx } = createTestContext({ cwd: join(base, cwd), homeDir: join(base, "home") });
      expect(hereRoot(ctx)).toBe(join(base, root));
    });
  }

  const bad = ["home", "home/loose/dir", "outside/plain"];
  for (const cwd of bad) {
    test(`${cwd}: not inside a project`, () => {
      const base = tree(FILES);
      const dir = join(base, cwd);
      const { ctx } = createTestContext({ cwd: dir, homeDir: join(base, "home") });
      let err: unknown;
      try {
        hereRoot(ctx);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as Error).message).toBe(
        `${dir} is not inside a project (no .git or other project marker from here up); --here needs one. Run it in the project, or leave --here out for a default everywhere.`,
      );
    });
  }

  test("a home directory that is itself a repository is still no project for --here", () => {
    const base = tree(["home/.git/HEAD", "home/notes/"]);
    for (const cwd of ["home", "home/notes"]) {
      const { ctx } = createTestContext({ cwd: join(base, cwd), homeDir: join(base, "home") });
      expect(() => hereRoot(ctx)).toThrow(ValidationError);
    }
  });
});
