/** The local database through the real CLI: modes, repair on/off, `cli fix`, read-only and corrupt state, concurrency. */
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { READ_ONLY_PREFIX, runCli, runWrapped, tempDir } from "../helpers/cli.ts";
import { dbFileModes } from "../helpers/db-files.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const ROOT = resolve(import.meta.dir, "../..");
const mode = (p: string) => statSync(p).mode & 0o777;
const dbFile = (dir: string) => join(dir, "tracker.db");

const api = useFakeApi();

/** Creates a database in a fresh config dir with the real CLI, then lets the test alter it. */
async function seededConfigDir(alter?: (db: Database) => void): Promise<string> {
  const dir = tempDir();
  const r = await runCli(["cli", "fix"], { configDir: dir });
  expect(r.exitCode).toBe(0);
  if (alter) {
    const db = new Database(dbFile(dir));
    alter(db);
    db.close();
  }
  return dir;
}

describe("permissions", () => {
  test("dir 700 and file 600 at creation under umask 000", async () => {
    const dir = join(tempDir(), "fresh", "cfg");
    const r = await runWrapped(["sh", "-c", 'umask 000; exec "$@"', "sh"], ["org", "list"], {
      TRACKER_CONFIG_DIR: dir,
      TRACKER_URL: api.url,
      TRACKER_AUTH_TOKEN: USER_TOKEN,
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    expect([mode(dir), mode(dbFile(dir))]).toEqual([0o700, 0o600]);
    const db = new Database(dbFile(dir), { readonly: true });
    expect((db.query("SELECT count(*) AS n FROM org_regions").get() as { n: number }).n).toBe(3);
    expect(db.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    db.close();
  });

  test("under umask 000 the -wal and -shm files a running tracker keeps open are 600 too", async () => {
    const dir = join(tempDir(), "cfg");
    const env = { TRACKER_CONFIG_DIR: dir, TRACKER_URL: api.url, TRACKER_AUTH_TOKEN: USER_TOKEN };
    const umask000 = ["sh", "-c", 'umask 000; exec "$@"', "sh"];
    expect((await runWrapped(umask000, ["defaults", "set", "acme/web"], env)).exitCode).toBe(0);
    // The listing's answer is held back, so the files are looked at while the run has them open.
    api.inject({ path: "/api/0/organizations/acme/issues/", delayMs: 3_000 });
    const running = runWrapped(umask000, ["issue", "list", "-n", "1"], env);
    let seen: number[] = [];
    for (let i = 0; i < 140 && seen.length < 3; i++) {
      await Bun.sleep(20);
      seen = dbFileModes(dir);
    }
    expect(seen).toEqual([0o600, 0o600, 0o600]);
    expect((await running).exitCode).toBe(0);
  });

  test("a looser existing dir and file are repaired", async () => {
    const dir = await seededConfigDir();
    chmodSync(dir, 0o777);
    chmodSync(dbFile(dir), 0o666);
    const r = await runCli(["cli", "fix"], { configDir: dir });
    expect(r.exitCode).toBe(0);
    expect([mode(dir), mode(dbFile(dir))]).toEqual([0o700, 0o600]);
  });
});

describe("automatic repair", () => {
  const dropAuthPieces = (db: Database) => {
    db.run("DROP TABLE org_regions");
    db.run("ALTER TABLE auth DROP COLUMN kind");
  };

  test("on by default: a dropped table and column are restored and the command works", async () => {
    const dir = await seededConfigDir(dropAuthPieces);
    const [noToken, withToken] = [
      await runCli(["org", "list"], { api, configDir: dir }),
      await runCli(["org", "list", "--json"], { api, configDir: dir, token: USER_TOKEN }),
    ];
    expect(noToken.exitCode).toBe(10);
    expect(noToken.stderr).toStartWith("Error: Not authenticated\n");
    expect(withToken.exitCode).toBe(0);
    expect(withToken.stderr).toBe("");
    const db = new Database(dbFile(dir), { readonly: true });
    expect((db.query("SELECT count(*) AS n FROM org_regions").get() as { n: number }).n).toBe(3);
    expect((db.query("PRAGMA table_info(auth)").all() as { name: string }[]).map((c) => c.name)).toContain(
      "kind",
    );
    db.close();
  });

  test("on by default: a write to a table missing a column (SQLite's 'has no column named') is repaired too", async () => {
    const dir = await seededConfigDir((db) => db.run("ALTER TABLE auth DROP COLUMN kind"));
    const r = await runCli(["auth", "login", "--token", USER_TOKEN], { api, configDir: dir });
    expect(r.stderr).not.toContain("has no column");
    expect(r.exitCode).toBe(0);
    const db = new Database(dbFile(dir), { readonly: true });
    expect((db.query("SELECT kind FROM logins").get() as { kind: string }).kind).toBe("user");
    db.close();
  });

  test("TRACKER_CLI_NO_AUTO_REPAIR=1: the spec's errors with the `tracker cli fix` hint", async () => {
    const env = { TRACKER_CLI_NO_AUTO_REPAIR: "1" };
    const noTable = await seededConfigDir((db) => db.run("DROP TABLE auth"));
    const noColumn = await seededConfigDir((db) => db.run("ALTER TABLE auth DROP COLUMN kind"));
    const [a, b] = await Promise.all([
      runCli(["org", "list"], { api, configDir: noTable, env }),
      runCli(["org", "list"], { api, configDir: noColumn, env }),
    ]);
    expect(a).toEqual({
      exitCode: 20,
      stdout: "",
      stderr:
        "Error: no such table: auth\n\nSuggestion: Run `tracker cli fix` to repair the local database.\n",
    });
    expect(b).toEqual({
      exitCode: 20,
      stdout: "",
      stderr:
        "Error: no such column: kind\n\nSuggestion: Run `tracker cli fix` to repair the local database.\n",
    });
  });

  test("TRACKER_CLI_NO_AUTO_REPAIR=1: a missing cache table only costs the cache (one warning)", async () => {
    const dir = await seededConfigDir((db) => db.run("DROP TABLE org_regions"));
    const r = await runCli(["org", "list"], {
      api,
      configDir: dir,
      token: USER_TOKEN,
      env: { TRACKER_CLI_NO_AUTO_REPAIR: "1" },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("acme");
    expect(r.stderr).toBe("Warning: Local cache skipped: no such table: org_regions\n");
  });
});

describe("tracker cli fix", () => {
  test("reports what it changed, then that nothing was wrong; --json says the same", async () => {
    const dir = await seededConfigDir((db) => {
      db.run("DROP TABLE cursors");
      db.run("ALTER TABLE defaults DROP COLUMN project");
    });
    const env = { TRACKER_CLI_NO_AUTO_REPAIR: "1" };
    const first = await runCli(["cli", "fix"], { configDir: dir, env });
    expect(first).toEqual({
      exitCode: 0,
      stdout: `Repaired the local database at ${dbFile(dir)}:\n  created table cursors\n  added column defaults.project\n`,
      stderr: "",
    });
    const second = await runCli(["cli", "fix", "--json"], { configDir: dir, env });
    expect(second.exitCode).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual({
      path: dbFile(dir),
      changed: false,
      createdTables: [],
      addedColumns: [],
      integrity: "ok",
    });
    const third = await runCli(["cli", "fix"], { configDir: dir });
    expect(third.stdout).toBe(
      `Nothing to repair: the local database at ${dbFile(dir)} is up to date (integrity: ok).\n`,
    );
  });
});

describe("read-only config dir", () => {
  test("no database yet: reads with TRACKER_AUTH_TOKEN work; a required write fails with the spec's message", async () => {
    const dir = tempDir();
    chmodSync(dir, 0o555);
    const env = { TRACKER_CONFIG_DIR: dir, TRACKER_URL: api.url, TRACKER_AUTH_TOKEN: USER_TOKEN };
    const list = await runWrapped(READ_ONLY_PREFIX, ["org", "list", "--json"], env);
    expect(list.exitCode).toBe(0);
    expect((JSON.parse(list.stdout) as { slug: string }[]).map((o) => o.slug)).toEqual([
      "acme",
      "globex",
      "initech",
    ]);
    expect(list.stderr).toBe(
      "Warning: Local state unavailable, continuing without cache: attempt to write a readonly database\n",
    );
    const fix = await runWrapped(READ_ONLY_PREFIX, ["cli", "fix"], env);
    expect(fix).toEqual({
      exitCode: 20,
      stdout: "",
      stderr: `Error: attempt to write a readonly database\n\nSuggestion: Make ${dbFile(dir)} and its directory writable by you, or set TRACKER_CONFIG_DIR to a writable directory.\n`,
    });
    expect(existsSync(dbFile(dir))).toBe(false);
  });

  test("existing database: stored state is still read (no token means 10, not a database error)", async () => {
    const dir = await seededConfigDir();
    chmodSync(dir, 0o500);
    const env = { TRACKER_CONFIG_DIR: dir, TRACKER_URL: api.url };
    const anon = await runWrapped(READ_ONLY_PREFIX, ["org", "list"], env);
    expect(anon.exitCode).toBe(10);
    expect(anon.stderr).toStartWith("Error: Not authenticated\n");
    const list = await runWrapped(READ_ONLY_PREFIX, ["org", "list"], {
      ...env,
      TRACKER_AUTH_TOKEN: USER_TOKEN,
    });
    expect(list.exitCode).toBe(0);
    expect(list.stdout).toContain("globex");
    const fix = await runWrapped(READ_ONLY_PREFIX, ["cli", "fix"], env);
    expect(fix.exitCode).toBe(20);
    expect(fix.stderr).toStartWith("Error: attempt to write a readonly database\n\nSuggestion: ");
    expect(mode(dir)).toBe(0o500);
  });
});

describe("corrupt database", () => {
  test("reported clearly, never deleted; commands with an env token still run", async () => {
    const dir = tempDir();
    const garbage = "definitely not sqlite ".repeat(50);
    writeFileSync(dbFile(dir), garbage);
    const anon = await runCli(["org", "list"], { api, configDir: dir });
    expect(anon).toEqual({
      exitCode: 20,
      stdout: "",
      stderr: `Error: The local database at ${dbFile(dir)} is damaged (file is not a database).\n\nSuggestion: Move it aside (mv ${dbFile(dir)} ${dbFile(dir)}.bak) and log in again; nothing was deleted.\n`,
    });
    const withToken = await runCli(["org", "list"], { api, configDir: dir, token: USER_TOKEN });
    expect(withToken.exitCode).toBe(0);
    expect(withToken.stdout).toContain("initech");
    expect(withToken.stderr).toStartWith(
      "Warning: Local state unavailable, continuing without cache: The local database",
    );
    const fix = await runCli(["cli", "fix"], { configDir: dir });
    expect(fix.exitCode).toBe(20);
    expect(readFileSync(dbFile(dir), "utf8")).toBe(garbage);
  });
});

describe("concurrency", () => {
  test("20 processes create and write one database at once: nothing lost, no lock errors", async () => {
    const dir = join(tempDir(), "shared");
    const procs = Array.from({ length: 20 }, (_, i) =>
      Bun.spawn([process.execPath, join(ROOT, "test/fixtures/db-writer.ts"), dir, `w${i}`, "25"], {
        stdout: "pipe",
        stderr: "pipe",
      }),
    );
    const results = await Promise.all(
      procs.map(async (p) => ({ code: await p.exited, stderr: await new Response(p.stderr).text() })),
    );
    expect(results.filter((r) => r.code !== 0 || r.stderr !== "")).toEqual([]);
    const db = new Database(dbFile(dir), { readonly: true });
    expect((db.query("SELECT count(*) AS n FROM cursors").get() as { n: number }).n).toBe(500);
    expect(
      (db.query("SELECT count(DISTINCT key) AS n FROM cursors WHERE key LIKE 'w19-%'").get() as { n: number })
        .n,
    ).toBe(25);
    db.close();
    expect([mode(dir), mode(dbFile(dir))]).toEqual([0o700, 0o600]);
  });

  test("20 concurrent CLI runs writing caches in one config dir: all succeed, no SQLITE_BUSY escapes", async () => {
    const dir = tempDir();
    const runs = await Promise.all(
      Array.from({ length: 20 }, () =>
        runCli(["org", "list", "--json"], { api, configDir: dir, token: USER_TOKEN }),
      ),
    );
    for (const r of runs) {
      expect(r.stderr).not.toMatch(/locked|SQLITE_BUSY/i);
      expect({ exitCode: r.exitCode, stderr: r.stderr }).toEqual({ exitCode: 0, stderr: "" });
      expect(JSON.parse(r.stdout)).toHaveLength(3);
    }
    const db = new Database(dbFile(dir), { readonly: true });
    expect((db.query("SELECT count(*) AS n FROM org_regions").get() as { n: number }).n).toBe(3);
    db.close();
  });
});

describe("twenty processes of every kind at once, right after a downgrade", () => {
  test("logins, defaults set, listings saving cursors and cli fix: none locked out, repairs wait their turn, integrity ok", async () => {
    const dir = tempDir();
    expect(
      (await runCli(["defaults", "set", "acme/web"], { api, configDir: dir, token: USER_TOKEN })).exitCode,
    ).toBe(0);
    // What a downgrade and an upgrade leave: an older schema version, a table and a column gone.
    const db = new Database(dbFile(dir));
    db.run("UPDATE meta SET value = '1' WHERE key = 'schema_version'");
    db.run("DROP TABLE cursors");
    db.run("ALTER TABLE defaults DROP COLUMN project");
    db.close();
    const projects = ["web", "api", "worker", "mobile-app", "web"];
    const jobs: string[][] = [
      ...Array.from({ length: 5 }, () => ["auth", "login", "--token", USER_TOKEN]),
      ...projects.map((p) => ["defaults", "set", `acme/${p}`]),
      ...Array.from({ length: 5 }, () => ["issue", "list", "acme/web", "-n", "2", "--json"]),
      ...Array.from({ length: 3 }, () => ["cli", "fix"]),
      ...Array.from({ length: 2 }, () => ["trace", "list", "acme/web", "-n", "1", "--json"]),
    ];
    expect(jobs).toHaveLength(20);
    const runs = await Promise.all(
      jobs.map((args) =>
        runCli(args, {
          api,
          configDir: dir,
          subprocess: true,
          ...(args[0] === "auth" ? {} : { token: USER_TOKEN }),
        }),
      ),
    );
    const failed = runs
      .map((r, i) => ({ args: jobs[i]?.join(" "), exitCode: r.exitCode, stderr: r.stderr }))
      .filter((r) => r.exitCode !== 0);
    expect(failed).toEqual([]);
    for (const r of runs) expect(r.stderr).not.toMatch(/locked|SQLITE_BUSY|Error:/i);
    const after = new Database(dbFile(dir), { readonly: true });
    expect(after.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    expect(after.query("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({ value: "6" });
    // Each write is whole: the defaults are one of those set, the login the one logged in.
    const defaults = after.query("SELECT org, project FROM defaults").all() as {
      org: string;
      project: string;
    }[];
    expect(defaults).toHaveLength(1);
    expect(defaults[0]?.org).toBe("acme");
    expect(projects).toContain(defaults[0]?.project as string);
    expect(after.query("SELECT base_url, token FROM logins").all()).toEqual([
      { base_url: api.url, token: USER_TOKEN },
    ]);
    expect((after.query("SELECT count(*) AS n FROM cursors").get() as { n: number }).n).toBeGreaterThan(0);
    after.close();
    // The last write wins: a write after them all is what is read back.
    expect((await runCli(["defaults", "set", "acme/worker"], { api, configDir: dir })).exitCode).toBe(0);
    const shown = await runCli(["defaults", "--json"], { api, configDir: dir });
    expect(JSON.parse(shown.stdout)).toMatchObject({ org: "acme", project: "worker" });
    expect([mode(dir), mode(dbFile(dir))]).toEqual([0o700, 0o600]);
  }, 120_000);
});

describe("the single login of earlier versions", () => {
  test("is moved to the login of its service URL on upgrade, and keeps working", async () => {
    const dir = await seededConfigDir((db) => {
      // What version 3 and earlier stored: one row in `auth`, and no `logins` table.
      db.run("DROP TABLE logins");
      db.run(
        "INSERT INTO auth (id, token, refresh_token, expires_at, issued_at, updated_at, kind, base_url, user_json) VALUES (1, ?, NULL, NULL, 0, 0, 'user', ?, NULL)",
        [USER_TOKEN, api.url],
      );
      db.run("UPDATE meta SET value = '3' WHERE key = 'schema_version'");
    });
    const r = await runCli(["org", "list", "--json"], { api, configDir: dir });
    expect(r.exitCode).toBe(0);
    expect(api.requests.every((q) => q.headers.authorization === `Bearer ${USER_TOKEN}`)).toBe(true);
    const db = new Database(dbFile(dir), { readonly: true });
    expect(db.query("SELECT base_url, token FROM logins").all()).toEqual([
      { base_url: api.url, token: USER_TOKEN },
    ]);
    expect(db.query("SELECT COUNT(*) AS n FROM auth").get()).toEqual({ n: 0 });
    db.close();
  });
});
