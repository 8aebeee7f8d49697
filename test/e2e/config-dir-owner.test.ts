/**
 * Issue 30: TRACKER_CONFIG_DIR on a shared sticky directory. A `tracker.db` another user created
 * there, or the directory itself when another user owns it and we can write it, is refused with a
 * clear error and never written. Runs the CLI as `nobody` (root passes every permission check).
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { READ_ONLY_PREFIX, runWrapped, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;
const HINT =
  "Suggestion: Set TRACKER_CONFIG_DIR to a directory only you own (it is created when missing), or unset it to use ~/.config/tracker-cli.\n";

/** A root-owned sticky, world-writable directory (like /tmp) inside a fresh temp dir. */
function shared(): string {
  const base = tempDir();
  chmodSync(base, 0o755);
  const dir = join(base, "shared");
  mkdirSync(dir);
  chmodSync(dir, 0o1777);
  return dir;
}

const env = (dir: string) => ({
  TRACKER_CONFIG_DIR: dir,
  TRACKER_URL: api.url,
  TRACKER_AUTH_TOKEN: USER_TOKEN,
});

describe.skipIf(!asRoot)("a config dir on a shared sticky directory (as nobody)", () => {
  test("a tracker.db another user planted there (mode 666) is refused and left untouched", async () => {
    const dir = shared();
    const db = join(dir, "tracker.db");
    writeFileSync(db, "planted");
    chmodSync(db, 0o666);
    const before = statSync(db).mtimeMs;
    for (const args of [
      ["defaults", "set", "acme/web"],
      ["org", "list"],
    ]) {
      const r = await runWrapped(READ_ONLY_PREFIX, args, env(dir));
      expect(r.exitCode).toBe(20);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(
        `Error: The local database file ${db} belongs to another user (uid 0); tracker does not read or write it.\n\n${HINT}`,
      );
    }
    expect(readFileSync(db, "utf8")).toBe("planted");
    expect(statSync(db).mtimeMs).toBe(before);
    expect(existsSync(`${db}-wal`)).toBe(false);
    expect(api.requests).toEqual([]);
  });

  test("the shared directory itself (another user's, writable by us) gets no tracker.db", async () => {
    const dir = shared();
    const r = await runWrapped(READ_ONLY_PREFIX, ["defaults", "set", "acme/web"], env(dir));
    expect(r.exitCode).toBe(20);
    expect(r.stderr).toBe(
      `Error: The config directory ${dir} belongs to another user (uid 0) and others can write it; tracker keeps no state there.\n\n${HINT}`,
    );
    expect(existsSync(join(dir, "tracker.db"))).toBe(false);
  });

  test("a directory of nobody's own inside the shared one works", async () => {
    const dir = join(shared(), "mine");
    mkdirSync(dir);
    chownSync(dir, NOBODY, NOBODY);
    const r = await runWrapped(READ_ONLY_PREFIX, ["defaults", "set", "acme/web"], env(dir));
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(statSync(join(dir, "tracker.db")).uid).toBe(NOBODY);
  });
});
