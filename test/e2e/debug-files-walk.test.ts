/**
 * The workspace file rules in `debug-files upload`'s walk, on a hostile tree, run as the
 * unprivileged user `nobody` (as root every file is readable): an unreadable file, a FIFO, a link
 * into /proc and out of the tree, a directory loop are notes; stored and deflated zip members are
 * read; nothing is sent (--dry-run).
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, chownSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { breakpadSym } from "../fixtures/difs/sym.ts";
import { READ_ONLY_PREFIX, runCli, runWrapped, tempDir } from "../helpers/cli.ts";

const ID_A = "de6a1d56c3e74a7eba2eb1cee1c5dd1a1";
const ID_S = "0123456789abcdef0123456789abcdef0";
const ID_Z = "fedcba9876543210fedcba98765432100";

function hostileTree(): string {
  const dir = tempDir();
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, "sub"));
  writeFileSync(join(dir, "good.sym"), breakpadSym({ id: ID_A }));
  writeFileSync(join(dir, "secret.sym"), breakpadSym({ id: ID_S }));
  // Unreadable whoever runs the test: root's setpriv'd child (not the owner) and an ordinary user (the owner).
  chmodSync(join(dir, "secret.sym"), 0o000);
  Bun.spawnSync(["mkfifo", join(dir, "pipe.sym")]);
  symlinkSync("/proc/self/environ", join(dir, "environ.sym"));
  symlinkSync(dir, join(dir, "sub/loop"));
  const zipDir = tempDir();
  writeFileSync(join(zipDir, "stored.sym"), breakpadSym({ id: ID_Z }));
  Bun.spawnSync(["zip", "-q", "-0", join(dir, "z.zip"), "stored.sym"], { cwd: zipDir });
  chmodSync(join(dir, "z.zip"), 0o644);
  return dir;
}

describe("debug-files upload walk (hostile tree)", () => {
  test("as an unprivileged user: notes for the unreadable file, the FIFO, /proc and the loop; zip members read", async () => {
    if (READ_ONLY_PREFIX.length === 0 && process.getuid?.() === 0) {
      console.warn("skipped: running as root without setpriv, the unreadable file would be readable");
      return;
    }
    const dir = hostileTree();
    const configDir = tempDir();
    // The config dir is the user's own: tracker refuses one another user owns and others can write.
    chmodSync(configDir, 0o700);
    if (READ_ONLY_PREFIX.length > 0) chownSync(configDir, 65534, 65534);
    const r = await runWrapped(
      READ_ONLY_PREFIX,
      ["debug-files", "upload", ".", "acme/web", "--dry-run", "--json"],
      { TRACKER_CONFIG_DIR: configDir, TRACKER_AUTH_TOKEN: "unused", HOME: configDir },
      { cwd: dir },
    );
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.files.map((f: { path: string; debugId: string }) => `${f.path} ${f.debugId}`)).toEqual([
      "good.sym de6a1d56-c3e7-4a7e-ba2e-b1cee1c5dd1a-1",
      "z.zip:stored.sym fedcba98-7654-3210-fedc-ba9876543210",
    ]);
    const reasons = Object.fromEntries(
      doc.skipped.map((s: { path: string; reason: string }) => [s.path, s.reason.replace(/ \(.*$/, "")]),
    );
    expect(reasons).toEqual({
      "environ.sym": "symlink out of the tree",
      "pipe.sym": "not a regular file",
      "secret.sym": "unreadable",
      "sub/loop": "symlink loop",
    });
  });

  test("a path under /proc is refused when named", async () => {
    const r = await runCli(["debug-files", "upload", "/proc/self/status", "acme/web", "--dry-run"], {});
    expect(r.exitCode).toBe(21);
    expect(r.stderr).toContain("is under /proc");
  });
});
