/** Issue 30: the file rules of lib/fs (containment, regular files read up to a cap, rewriting in place). */
import { describe, expect, test } from "bun:test";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { containedPath } from "../../../src/lib/fs/contain.ts";
import { readRegularFile } from "../../../src/lib/fs/regular.ts";
import { RewriteRefused, replaceFile } from "../../../src/lib/fs/rewrite.ts";
import { tempDir } from "../../helpers/cli.ts";

const mode = (p: string) => statSync(p).mode & 0o7777;

function mkfifo(path: string): void {
  const r = Bun.spawnSync(["mkfifo", path]);
  if (r.exitCode !== 0) throw new Error(`mkfifo failed: ${r.stderr.toString()}`);
}

describe("containment", () => {
  test("a link or `..` out of the tree is refused; a link inside it resolves", () => {
    const base = tempDir();
    const tree = join(base, "tree");
    mkdirSync(join(tree, "sub"), { recursive: true });
    writeFileSync(join(base, "outside.js"), "x");
    writeFileSync(join(tree, "in.js"), "x");
    symlinkSync("../outside.js", join(tree, "rel-out.js"));
    symlinkSync(join(base, "outside.js"), join(tree, "abs-out.js"));
    symlinkSync("/", join(tree, "root"));
    symlinkSync("../in.js", join(tree, "sub/in-link.js"));
    for (const p of ["rel-out.js", "abs-out.js", "root", "sub/../../outside.js"])
      expect(containedPath(tree, join(tree, p))).toMatchObject({ ok: false });
    expect(containedPath(tree, join(tree, "sub/in-link.js"))).toEqual({
      ok: true,
      real: join(tree, "in.js"),
    });
  });
});

describe("regular files only, read up to the cap", () => {
  test("a FIFO is refused at once (no blocking open), so are directories and /proc entries", () => {
    const dir = tempDir();
    mkfifo(join(dir, "pipe"));
    const t0 = performance.now();
    expect(readRegularFile(join(dir, "pipe"), 1024)).toMatchObject({
      ok: false,
      why: "not-regular",
      note: "a FIFO, not a regular file",
    });
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(readRegularFile(dir, 1024)).toMatchObject({ ok: false, why: "not-regular" });
    expect(readRegularFile(join(dir, "missing"), 1024)).toMatchObject({ ok: false, why: "missing" });
  });

  test("/proc/self/environ and /proc/self/pagemap (stat says 0 bytes) are not read, also through a link", () => {
    if (!statSync("/proc/self", { throwIfNoEntry: false })) {
      console.warn("skipped: no /proc on this system");
      return;
    }
    const dir = tempDir();
    symlinkSync("/proc/self/pagemap", join(dir, ".sentryclirc"));
    for (const p of ["/proc/self/environ", "/proc/self/pagemap", join(dir, ".sentryclirc")])
      expect(readRegularFile(p, 1024 * 1024)).toMatchObject({ ok: false, why: "pseudo" });
  });

  test("a file is read whole up to the cap, refused one byte past it", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a"), "x".repeat(100));
    const at = readRegularFile(join(dir, "a"), 100);
    expect(at.ok && at.data.toString()).toBe("x".repeat(100));
    expect(readRegularFile(join(dir, "a"), 99)).toMatchObject({ ok: false, why: "too-large" });
    writeFileSync(join(dir, "big"), Buffer.alloc(300_000, 97));
    const big = readRegularFile(join(dir, "big"), 1_000_000);
    expect(big.ok && big.data.length).toBe(300_000);
  });
});

describe("rewriting in place", () => {
  test("keeps 755 and 444 and leaves no temp file", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "run.js"), "old");
    writeFileSync(join(dir, "ro.js"), "old");
    chmodSync(join(dir, "run.js"), 0o755);
    chmodSync(join(dir, "ro.js"), 0o444);
    replaceFile(join(dir, "run.js"), "new 1", { root: dir });
    replaceFile(join(dir, "ro.js"), "new 2", { root: dir });
    expect([readFileSync(join(dir, "run.js"), "utf8"), mode(join(dir, "run.js"))]).toEqual(["new 1", 0o755]);
    expect([readFileSync(join(dir, "ro.js"), "utf8"), mode(join(dir, "ro.js"))]).toEqual(["new 2", 0o444]);
    expect(readdirSync(dir).sort()).toEqual(["ro.js", "run.js"]);
  });

  test("a symlinked target is written through only when its real path is inside the tree", () => {
    const base = tempDir();
    const tree = join(base, "tree");
    mkdirSync(tree);
    writeFileSync(join(base, "victim"), "precious");
    writeFileSync(join(tree, "real.js"), "old");
    symlinkSync("real.js", join(tree, "alias.js"));
    symlinkSync("../victim", join(tree, "out.js"));
    replaceFile(join(tree, "alias.js"), "new", { root: tree });
    expect(readFileSync(join(tree, "real.js"), "utf8")).toBe("new");
    expect(lstatSync(join(tree, "alias.js")).isSymbolicLink()).toBe(true);
    expect(() => replaceFile(join(tree, "out.js"), "evil", { root: tree })).toThrow(RewriteRefused);
    expect(readFileSync(join(base, "victim"), "utf8")).toBe("precious");
    expect(readlinkSync(join(tree, "out.js"))).toBe("../victim");
    expect(readdirSync(tree).sort()).toEqual(["alias.js", "out.js", "real.js"]);
  });

  test("a new file gets the mode asked for, whatever the umask", () => {
    const dir = tempDir();
    replaceFile(join(dir, "new"), "x", { mode: 0o600 });
    expect(mode(join(dir, "new"))).toBe(0o600);
  });
});
