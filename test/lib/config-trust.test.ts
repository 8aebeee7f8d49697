/** config/trust.ts: which workspace files count, judged for a given user and group. */
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { untrustedReason } from "../../src/lib/config/trust.ts";
import { tempDir } from "../helpers/cli.ts";

/** A directory `d` (mode `dirMode`) holding `.sentryclirc` (mode `fileMode`), owned by this process. */
function tree(dirMode: number, fileMode = 0o644): { dir: string; file: string } {
  const dir = join(tempDir(), "d");
  mkdirSync(dir);
  const file = join(dir, ".sentryclirc");
  writeFileSync(file, "[defaults]\norg=acme\n");
  chmodSync(file, fileMode);
  chmodSync(dir, dirMode);
  return { dir, file };
}

const me = (path: string) => ({ uid: statSync(path).uid, gid: statSync(path).gid });

describe("untrustedReason", () => {
  test("the user's own file in the user's own 0755 directory counts; a missing file is no reason", () => {
    const t = tree(0o755);
    expect(untrustedReason(t.file, me(t.file))).toBeUndefined();
    expect(untrustedReason(join(t.dir, "missing"), me(t.file))).toBeUndefined();
  });

  test("another user's file, whatever its mode", () => {
    const t = tree(0o755);
    const { uid, gid } = me(t.file);
    expect(untrustedReason(t.file, { uid: uid + 1, gid })).toBe(`it is owned by another user (uid ${uid})`);
  });

  test("group write counts only for a group other than the user's own", () => {
    const t = tree(0o775, 0o664);
    const { uid, gid } = me(t.file);
    expect(untrustedReason(t.file, { uid, gid })).toBeUndefined();
    expect(untrustedReason(t.file, { uid, gid: gid + 1 })).toBe(`it is writable by group ${gid}`);
    chmodSync(t.file, 0o644);
    expect(untrustedReason(t.file, { uid, gid: gid + 1 })).toBe(
      `its directory ${t.dir} is writable by group ${gid}`,
    );
  });

  test("a sticky, world-writable directory (like /tmp) and a world-writable file", () => {
    const t = tree(0o1777);
    expect(untrustedReason(t.file, me(t.file))).toBe(`its directory ${t.dir} is writable by every user`);
    const u = tree(0o755, 0o646);
    expect(untrustedReason(u.file, me(u.file))).toBe("it is writable by every user");
  });

  test("a symlink is judged by the directory of its target too", () => {
    const shared = tree(0o1777);
    const mine = tree(0o755);
    const link = join(mine.dir, "sentry.properties");
    symlinkSync(shared.file, link);
    expect(untrustedReason(link, me(mine.file))).toBe(
      `its directory ${shared.dir} is writable by every user`,
    );
  });
});
