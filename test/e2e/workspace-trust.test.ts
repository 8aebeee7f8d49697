/**
 * Issue 30 "Which workspace files count": a `.sentryclirc`, `sentry.properties` or `.env` that
 * another user owns, or that sits in a directory another user owns or can write, is ignored with
 * one warning; the user's own files count as before.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, chownSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { READ_ONLY_PREFIX, runCli, runWrapped, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

const bearers = () => [...new Set(api.requests.map((r) => r.headers.authorization))];

/** A git project `proj` under a fresh home, with a `.sentryclirc` naming the fake, its token and org. */
function project(): { home: string; proj: string; rc: string } {
  const home = tempDir("tracker-home-");
  const proj = join(home, "proj");
  mkdirSync(join(proj, ".git"), { recursive: true });
  const rc = join(proj, ".sentryclirc");
  writeFileSync(rc, `[auth]\ntoken=${USER_TOKEN}\n[defaults]\nurl=${api.url}\norg=acme\n`);
  return { home, proj, rc };
}

describe("a workspace file in a directory every user can write", () => {
  test("a .sentryclirc in a sticky, world-writable directory is ignored with one warning; 0755 counts", async () => {
    const s = project();
    chmodSync(s.proj, 0o1777);
    const env = { HOME: s.home, TRACKER_URL: undefined };
    const r = await runCli(["org", "list", "--json"], { cwd: s.proj, env });
    expect(r.exitCode).toBe(10);
    const warning = `Warning: Ignoring ${s.rc}: its directory ${s.proj} is writable by every user, so it may not be yours.`;
    expect(r.stderr.split(warning).length - 1).toBe(1);
    expect(api.requests).toEqual([]);
    chmodSync(s.proj, 0o755);
    const ok = await runCli(["org", "list", "--json"], { cwd: s.proj, env });
    expect(ok.exitCode).toBe(0);
    expect(ok.stderr).not.toContain("Ignoring");
    expect(bearers()).toEqual([`Bearer ${USER_TOKEN}`]);
  });

  test("a .sentryclirc every user can write is ignored", async () => {
    const s = project();
    chmodSync(s.rc, 0o666);
    const r = await runCli(["org", "list", "--json"], {
      cwd: s.proj,
      env: { HOME: s.home, TRACKER_URL: undefined },
    });
    expect(r.exitCode).toBe(10);
    expect(r.stderr).toContain(`Warning: Ignoring ${s.rc}: it is writable by every user`);
    expect(api.requests).toEqual([]);
  });

  test("a .env DSN in a world-writable project is not detected; in the user's own directory it is", async () => {
    const s = project();
    const dsn = `https://${"ab".repeat(16)}@o1.ingest.sentry.io/4242`;
    writeFileSync(join(s.proj, ".env"), `SENTRY_DSN=${dsn}\n`);
    chmodSync(s.proj, 0o1777);
    const env = { HOME: s.home };
    const r = await runCli(["auth", "status", "--json"], { api, token: USER_TOKEN, cwd: s.proj, env });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).dsn).toBeNull();
    expect(r.stderr).toContain(
      `Warning: Ignoring ${join(s.proj, ".env")}: its directory ${s.proj} is writable by every user`,
    );
    chmodSync(s.proj, 0o755);
    const ok = await runCli(["auth", "status", "--json"], { api, token: USER_TOKEN, cwd: s.proj, env });
    expect(JSON.parse(ok.stdout).dsn).toMatchObject({ dsn });
    expect(ok.stderr).not.toContain("Ignoring");
    api.reset();
  });
});

describe("files another user owns (run as nobody)", () => {
  test.skipIf(!asRoot)(
    "root's .sentryclirc is ignored for nobody; nobody's own file in nobody's directory counts",
    async () => {
      const s = project();
      chmodSync(s.home, 0o755);
      chmodSync(s.proj, 0o755);
      chmodSync(s.rc, 0o644);
      const home = tempDir("tracker-nobody-home-");
      const configDir = join(home, "cfg");
      mkdirSync(configDir);
      chownSync(home, NOBODY, NOBODY);
      chownSync(configDir, NOBODY, NOBODY);
      const env = { HOME: home, TRACKER_CONFIG_DIR: configDir, TRACKER_PAGER: "" };
      const r = await runWrapped(READ_ONLY_PREFIX, ["org", "list", "--json"], env, { cwd: s.proj });
      expect(r.exitCode).toBe(10);
      expect(r.stderr).toContain(`Warning: Ignoring ${s.rc}: it is owned by another user (uid 0)`);
      expect(api.requests).toEqual([]);
      // The same file, owned by nobody, in a directory nobody owns: the token goes to the file's URL.
      chownSync(s.rc, NOBODY, NOBODY);
      chownSync(s.proj, NOBODY, NOBODY);
      const ok = await runWrapped(READ_ONLY_PREFIX, ["org", "list", "--json"], env, { cwd: s.proj });
      expect(ok.stderr).not.toContain("Ignoring");
      expect(ok.exitCode).toBe(0);
      expect(bearers()).toEqual([`Bearer ${USER_TOKEN}`]);
      // nobody's file in root's directory: the directory decides.
      chownSync(s.proj, 0, 0);
      api.reset();
      const dir = await runWrapped(READ_ONLY_PREFIX, ["org", "list", "--json"], env, { cwd: s.proj });
      expect(dir.exitCode).toBe(10);
      expect(dir.stderr).toContain(
        `Warning: Ignoring ${s.rc}: its directory ${s.proj} is owned by another user (uid 0)`,
      );
      expect(api.requests).toEqual([]);
    },
  );
});
