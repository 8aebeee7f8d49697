import { describe, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  createStore,
  describeDbError,
  openDatabase,
  openReadOnly,
  repairSchema,
  withRepair,
} from "../../src/lib/db/index.ts";
import { SCHEMA_VERSION, TABLES } from "../../src/lib/db/schema.ts";
import { CliError, ConfigError } from "../../src/lib/errors.ts";
import { createLogger } from "../../src/lib/log.ts";
import { dbPath } from "../../src/lib/paths.ts";
import { tempDir } from "../helpers/cli.ts";

const mode = (p: string) => statSync(p).mode & 0o777;
const tables = (db: Database) =>
  (
    db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]
  ).map((r) => r.name);
const columns = (db: Database, t: string) =>
  (db.query(`PRAGMA table_info(${t})`).all() as { name: string }[]).map((r) => r.name);

describe("openDatabase", () => {
  test("creates dir 0700 and file 0600 even with umask 000; WAL, busy timeout, every table", () => {
    const dir = join(tempDir(), "nested", "cfg");
    const old = process.umask(0);
    let db: Database;
    try {
      db = openDatabase(dir, { autoRepair: true });
    } finally {
      process.umask(old);
    }
    expect(mode(dir)).toBe(0o700);
    expect(mode(dbPath(dir))).toBe(0o600);
    expect(db.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    expect(db.query("PRAGMA busy_timeout").get()).toEqual({ timeout: 10_000 });
    expect(tables(db)).toEqual(TABLES.map((t) => t.name).sort());
    expect(db.query("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({
      value: String(SCHEMA_VERSION),
    });
    db.close();
  });

  test("tightens a looser existing dir and file, but never adds owner bits", () => {
    const dir = tempDir();
    chmodSync(dir, 0o777);
    openDatabase(dir, { autoRepair: true }).close();
    chmodSync(dbPath(dir), 0o666);
    chmodSync(dir, 0o755);
    openDatabase(dir, { autoRepair: true }).close();
    expect([mode(dir), mode(dbPath(dir))]).toEqual([0o700, 0o600]);
  });

  test("an older schema version is migrated on open when auto-repair is on, left alone when off", () => {
    for (const autoRepair of [true, false]) {
      const dir = tempDir();
      const first = openDatabase(dir, { autoRepair: true });
      first.run("DROP TABLE cursors");
      first.run("ALTER TABLE auth DROP COLUMN kind");
      first.run("UPDATE meta SET value = '0' WHERE key = 'schema_version'");
      first.close();
      const db = openDatabase(dir, { autoRepair });
      expect(tables(db).includes("cursors")).toBe(autoRepair);
      expect(columns(db, "auth").includes("kind")).toBe(autoRepair);
      db.close();
    }
  });

  test("a corrupt file is reported clearly and kept byte for byte", () => {
    const dir = tempDir();
    const garbage = "this is not an sqlite file, but it could hold someone's only credentials\n".repeat(20);
    writeFileSync(dbPath(dir), garbage);
    let err: unknown;
    try {
      openDatabase(dir, { autoRepair: true });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).format()).toBe(
      `The local database at ${dbPath(dir)} is damaged (file is not a database).\n\nSuggestion: Move it aside (mv ${dbPath(dir)} ${dbPath(dir)}.bak) and log in again; nothing was deleted.`,
    );
    expect(readFileSync(dbPath(dir), "utf8")).toBe(garbage);
  });

  test("a config dir path that is a file is a ConfigError, not a crash", () => {
    const file = join(tempDir(), "not-a-dir");
    writeFileSync(file, "x");
    expect(() => openDatabase(file, { autoRepair: true })).toThrow(CliError);
  });
});

describe("repair", () => {
  test("repairSchema recreates a dropped table and a dropped column and reports them; idempotent", () => {
    const dir = tempDir();
    const db = openDatabase(dir, { autoRepair: true });
    db.run("INSERT INTO defaults (id, org, project, updated_at) VALUES (1, 'acme', 'web', 1)");
    db.run("DROP TABLE org_regions");
    db.run("ALTER TABLE defaults DROP COLUMN project");
    expect(repairSchema(db)).toEqual({ createdTables: ["org_regions"], addedColumns: ["defaults.project"] });
    expect(repairSchema(db)).toEqual({ createdTables: [], addedColumns: [] });
    expect(db.query("SELECT org, project FROM defaults").get()).toEqual({ org: "acme", project: null });
    db.close();
  });

  test("withRepair: on 'no such table/column' repairs and retries; without auto-repair a ConfigError with the fix hint", () => {
    const db = openDatabase(tempDir(), { autoRepair: true });
    db.run("DROP TABLE cursors");
    expect(() =>
      withRepair(db, false, "/x/tracker.db", () => db.query("SELECT * FROM cursors").all()),
    ).toThrow("no such table: cursors");
    try {
      withRepair(db, false, "/x/tracker.db", () => db.query("SELECT * FROM cursors").all());
    } catch (e) {
      expect((e as ConfigError).format()).toBe(
        "no such table: cursors\n\nSuggestion: Run `tracker cli fix` to repair the local database.",
      );
    }
    expect(withRepair(db, true, "/x/tracker.db", () => db.query("SELECT * FROM cursors").all())).toEqual([]);
    db.run("ALTER TABLE auth DROP COLUMN kind");
    expect(() =>
      withRepair(db, false, "/x/tracker.db", () => db.query("SELECT kind FROM auth").all()),
    ).toThrow("no such column: kind");
    expect(withRepair(db, true, "/x/tracker.db", () => db.query("SELECT kind FROM auth").all())).toEqual([]);
    db.close();
  });
});

describe("describeDbError", () => {
  test("keeps the spec's readonly message with a suggestion; locked and unknown errors are ConfigErrors", () => {
    expect(describeDbError(new Error("attempt to write a readonly database"), "/c/tracker.db").format()).toBe(
      "attempt to write a readonly database\n\nSuggestion: Make /c/tracker.db and its directory writable by you, or set TRACKER_CONFIG_DIR to a writable directory.",
    );
    expect(describeDbError(new Error("database is locked"), "/c/tracker.db").message).toBe(
      "The local database is locked by another tracker process.",
    );
    const other = describeDbError(new Error("disk I/O error"), "/c/tracker.db");
    expect(other).toBeInstanceOf(ConfigError);
    expect(other.exitCode).toBe(20);
  });
});

/** A store whose warnings are collected in `sink.text`. */
function storeWithLog(dir: string) {
  const sink = {
    text: "",
    write(t: string) {
      this.text += t;
    },
  };
  const store = createStore(
    dir,
    () => true,
    () => createLogger("info", sink),
  );
  return { store, sink };
}

describe("createStore", () => {
  test("opens lazily: nothing is created until first use", () => {
    const dir = join(tempDir(), "cfg");
    const { store } = storeWithLog(dir);
    expect(() => statSync(dir)).toThrow();
    expect(store.open()).toBe(store.open());
    expect(store.readOnly).toBe(false);
    store.close();
    expect(mode(dbPath(dir))).toBe(0o600);
  });

  test("tryOpen warns once and yields undefined when the database cannot be opened", () => {
    const dir = tempDir();
    writeFileSync(dbPath(dir), "garbage ".repeat(64));
    const { store, sink } = storeWithLog(dir);
    expect(store.tryOpen()).toBeUndefined();
    expect(store.tryOpen()).toBeUndefined();
    expect(sink.text.split("\n").filter(Boolean)).toHaveLength(1);
    expect(sink.text).toStartWith(
      "Warning: Local state unavailable, continuing without cache: The local database at ",
    );
    expect(() => store.open()).toThrow(ConfigError);
  });

  test("openReadOnly reads an existing WAL database", () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    const db = openDatabase(dir, { autoRepair: true });
    db.run("INSERT INTO meta (key, value) VALUES ('probe', 'yes')");
    db.close();
    const ro = openReadOnly(dbPath(dir));
    expect(ro?.query("SELECT value FROM meta WHERE key = 'probe'").get()).toEqual({ value: "yes" });
    expect(() => ro?.run("DELETE FROM meta")).toThrow("attempt to write a readonly database");
    ro?.close();
  });
});
