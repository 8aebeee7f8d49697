/**
 * The config dir is tracker's, and nothing else is: a path that is not a directory is refused, a
 * directory that is not ours (shared, holding other files, reached through a symlink) keeps its
 * mode, a symlinked database file is not chmodded through, and a config dir that cannot be
 * written still lets reads work, run as an unprivileged user (root passes every permission check).
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { READ_ONLY_PREFIX, runCli, runWrapped, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const mode = (p: string) => statSync(p).mode & 0o7777;

describe("a config path that is not a directory", () => {
  test("/dev/null is refused with exit 20 and keeps its mode", async () => {
    const before = mode("/dev/null");
    for (const args of [
      ["defaults", "show"],
      ["org", "list"],
      ["cli", "fix"],
    ]) {
      const r = await runCli(args, { api, token: USER_TOKEN, configDir: "/dev/null" });
      expect(r.exitCode).toBe(20);
      expect(r.stdout).toBe("");
      expect(r.stderr).toStartWith(
        "Error: The config directory /dev/null is not a directory.\n\nSuggestion: ",
      );
    }
    expect(mode("/dev/null")).toBe(before);
    expect(api.requests).toEqual([]);
  });

  test("a regular file is refused and left as it was", async () => {
    const file = join(tempDir(), "state");
    writeFileSync(file, "mine");
    chmodSync(file, 0o644);
    const r = await runCli(["org", "list"], { api, token: USER_TOKEN, configDir: file });
    expect(r.exitCode).toBe(20);
    expect(r.stderr).toContain(`The config directory ${file} is not a directory.`);
    expect(mode(file)).toBe(0o644);
  });
});

describe("only tracker's own directory is tightened", () => {
  test("an existing dir holding only tracker's files is made 0700", async () => {
    const dir = tempDir();
    chmodSync(dir, 0o755);
    const r = await runCli(["cli", "fix"], { configDir: dir });
    expect(r.exitCode).toBe(0);
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, "tracker.db"))).toBe(0o600);
  });

  test("a shared dir (other files, or sticky like /tmp) keeps its mode", async () => {
    const shared = tempDir();
    writeFileSync(join(shared, "notes.txt"), "someone else's");
    chmodSync(shared, 0o755);
    const sticky = tempDir();
    chmodSync(sticky, 0o1777);
    for (const dir of [shared, sticky]) {
      const r = await runCli(["cli", "fix"], { configDir: dir });
      expect(r.exitCode).toBe(0);
      expect(existsSync(join(dir, "tracker.db"))).toBe(true);
    }
    expect(mode(shared)).toBe(0o755);
    expect(mode(sticky)).toBe(0o1777);
  });

  test("a symlinked config dir is used, never chmodded through", async () => {
    const real = tempDir();
    chmodSync(real, 0o755);
    const link = join(tempDir(), "cfg");
    symlinkSync(real, link);
    const r = await runCli(["cli", "fix"], { configDir: link });
    expect(r.exitCode).toBe(0);
    expect(existsSync(join(real, "tracker.db"))).toBe(true);
    expect(mode(real)).toBe(0o755);
  });

  test("a symlinked tracker.db: the file it points to keeps its mode", async () => {
    const elsewhere = tempDir();
    const target = join(elsewhere, "other.db");
    writeFileSync(target, "");
    chmodSync(target, 0o644);
    const dir = tempDir();
    symlinkSync(target, join(dir, "tracker.db"));
    await runCli(["cli", "fix"], { configDir: dir });
    expect(mode(target)).toBe(0o644);
  });
});

describe("a config dir that cannot be written (as an unprivileged user)", () => {
  const env = (dir: string) => ({
    TRACKER_CONFIG_DIR: dir,
    TRACKER_URL: api.url,
    TRACKER_AUTH_TOKEN: USER_TOKEN,
  });

  test("empty read-only dir: defaults show, auth status and listings work; writes fail with exit 20", async () => {
    const dir = tempDir();
    chmodSync(dir, 0o555);
    const show = await runWrapped(READ_ONLY_PREFIX, ["defaults", "show"], env(dir));
    expect(show.exitCode).toBe(0);
    expect(show.stdout).toContain("No defaults set.");
    const status = await runWrapped(READ_ONLY_PREFIX, ["auth", "status"], env(dir));
    expect(status.exitCode).toBe(0);
    expect(status.stdout).toContain("TRACKER_AUTH_TOKEN");
    const list = await runWrapped(READ_ONLY_PREFIX, ["issue", "list", "acme/web", "--json"], env(dir));
    expect(list.exitCode).toBe(0);
    expect((JSON.parse(list.stdout) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    const set = await runWrapped(READ_ONLY_PREFIX, ["defaults", "set", "acme/web"], env(dir));
    expect(set.exitCode).toBe(20);
    expect(set.stderr).toContain("attempt to write a readonly database");
    expect(existsSync(join(dir, "tracker.db"))).toBe(false);
  });

  test("HOME unwritable and no TRACKER_CONFIG_DIR: reads work", async () => {
    const home = tempDir();
    chmodSync(home, 0o555);
    const r = await runWrapped(
      READ_ONLY_PREFIX,
      ["defaults", "show", "--json"],
      { HOME: home, TRACKER_URL: api.url, TRACKER_AUTH_TOKEN: USER_TOKEN },
      { unset: ["XDG_CONFIG_HOME"] },
    );
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ org: null });
    expect(existsSync(join(home, ".config"))).toBe(false);
  });

  test("a config dir at / : reads work and / is untouched", async () => {
    const before = mode("/");
    const r = await runWrapped(READ_ONLY_PREFIX, ["defaults", "show"], env("/"));
    expect(r.exitCode).toBe(0);
    expect(mode("/")).toBe(before);
    expect(existsSync("/tracker.db")).toBe(false);
  });

  test("a nested path under a read-only dir is not created", async () => {
    const parent = tempDir();
    chmodSync(parent, 0o555);
    const dir = join(parent, "a", "b");
    const r = await runWrapped(READ_ONLY_PREFIX, ["defaults", "show"], env(dir));
    expect(r.exitCode).toBe(0);
    expect(existsSync(join(parent, "a"))).toBe(false);
  });
});
