import { Database, constants as sqliteFlags } from "bun:sqlite";
import { accessSync, constants, existsSync } from "node:fs";
import { dirname } from "node:path";
import type { StoreHandle } from "../../context.ts";
import { CliError, ConfigError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { dbPath } from "../paths.ts";
import { ensurePrivateDir, NotADirectoryError, tighten } from "../private-dir.ts";
import { assertOwnStateDir, ForeignStateError } from "./owner.ts";
import { readMeta, writeMeta } from "./meta.ts";
import { addColumnType, createTableSql, LEGACY_MOVES, SCHEMA_VERSION, TABLES } from "./schema.ts";

/** How long a writer waits for another process's lock before failing. */
export const BUSY_TIMEOUT_MS = 10_000;

/** What was changed by a schema repair. */
export interface RepairReport {
  createdTables: string[];
  addedColumns: string[];
}

/** Creates missing tables and adds missing columns; returns what it changed. */
export function repairSchema(db: Database): RepairReport {
  const report: RepairReport = { createdTables: [], addedColumns: [] };
  // IMMEDIATE takes the write lock first (waiting like every writer), and the schema is read inside
  // the transaction, so two processes repairing at once never add the same column twice.
  db.transaction(() => {
    const existing = new Set(
      (db.query("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
        (r) => r.name,
      ),
    );
    for (const t of TABLES) {
      if (!existing.has(t.name)) {
        db.run(createTableSql(t));
        report.createdTables.push(t.name);
        continue;
      }
      const cols = new Set(
        (db.query(`PRAGMA table_info(${t.name})`).all() as { name: string }[]).map((r) => r.name),
      );
      for (const c of t.columns) {
        if (!cols.has(c.name)) {
          db.run(`ALTER TABLE ${t.name} ADD COLUMN ${c.name} ${addColumnType(c)}`);
          report.addedColumns.push(`${t.name}.${c.name}`);
        }
      }
    }
    for (const sql of LEGACY_MOVES) db.run(sql);
    writeMeta(db, "schema_version", String(SCHEMA_VERSION));
  }).immediate();
  return report;
}

function storedVersion(db: Database): number | undefined {
  try {
    const value = readMeta(db, "schema_version");
    return value === undefined ? undefined : Number(value);
  } catch {
    return undefined;
  }
}

function tightenFiles(path: string): void {
  for (const p of [path, `${path}-wal`, `${path}-shm`]) {
    if (existsSync(p)) tighten(p, 0o600);
  }
}

function dirWritable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Maps an SQLite failure to a clear CliError, keeping the spec's messages. */
export function describeDbError(err: unknown, path: string): CliError {
  const msg = err instanceof Error ? err.message : String(err);
  // SQLite says only "unable to open database file" when it may not create the file or its journal.
  const cannotCreate = /unable to open database file/i.test(msg) && !dirWritable(dirname(path));
  if (cannotCreate || /readonly database|read-only|EACCES|EROFS|EPERM|permission denied/i.test(msg)) {
    return new ConfigError(
      "attempt to write a readonly database",
      `Make ${path} and its directory writable by you, or set TRACKER_CONFIG_DIR to a writable directory.`,
    );
  }
  if (/not a database|malformed|corrupt/i.test(msg)) {
    return new ConfigError(
      `The local database at ${path} is damaged (${msg}).`,
      `Move it aside (mv ${path} ${path}.bak) and log in again; nothing was deleted.`,
    );
  }
  if (/no such (table|column)|has no column named/i.test(msg)) {
    return new ConfigError(msg, "Run `tracker cli fix` to repair the local database.");
  }
  if (/database is locked|SQLITE_BUSY/i.test(msg)) {
    return new ConfigError(
      "The local database is locked by another tracker process.",
      "Wait for the other process to finish and try again.",
    );
  }
  return new ConfigError(`Local database error: ${msg}`, `Run \`tracker cli fix\` or check ${path}.`);
}

/** Opens (creating if needed) the database in a config dir with the pragmas and permissions the project requires. */
export function openDatabase(configDir: string, opts: { autoRepair: boolean }): Database {
  const path = dbPath(configDir);
  const oldUmask = process.umask(0o077);
  let db: Database;
  try {
    assertOwnStateDir(configDir);
    ensurePrivateDir(configDir);
    db = new Database(path, { create: true, strict: true });
  } catch (err) {
    process.umask(oldUmask);
    throw err instanceof CliError ? err : describeDbError(err, path);
  }
  try {
    db.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // Switching a new file to WAL and creating the schema can meet another process doing the same;
    // SQLite answers some of those races with SQLITE_BUSY at once instead of waiting, so wait here.
    whileBusy(() => db.run("PRAGMA journal_mode = WAL"));
    db.run("PRAGMA synchronous = NORMAL");
    whileBusy(() => {
      const version = storedVersion(db);
      if (version === undefined || version < SCHEMA_VERSION) {
        // A brand-new file (no meta table) is always initialised; an older one only with auto-repair on.
        if (version === undefined || opts.autoRepair) repairSchema(db);
      }
    });
  } catch (err) {
    db.close();
    throw describeDbError(err, path);
  } finally {
    process.umask(oldUmask);
    tightenFiles(path);
  }
  return db;
}

const BUSY_RE = /database is locked|SQLITE_BUSY/i;

/** Runs `fn`, trying again while SQLite says busy, for at most the busy timeout. */
function whileBusy(fn: () => void): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      fn();
      return;
    } catch (err) {
      if (!BUSY_RE.test(err instanceof Error ? err.message : String(err)) || Date.now() > deadline) throw err;
      Bun.sleepSync(5 + Math.floor(Math.random() * 20));
    }
  }
}

const MISSING_RE = /no such (table|column)|has no column named/i;

/**
 * Runs a database operation; on "no such table/column" repairs the schema and retries once,
 * unless TRACKER_CLI_NO_AUTO_REPAIR=1, in which case the error is surfaced with a hint.
 */
export function withRepair<T>(db: Database, autoRepair: boolean, path: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    if (MISSING_RE.test(msg) && autoRepair) {
      repairSchema(db);
      return fn();
    }
    throw describeDbError(err, path);
  }
}

/**
 * Opens an existing database for reading only. A WAL database needs its -shm file, which cannot be
 * created in a read-only directory; SQLite's `immutable` URI flag reads the main file without it.
 */
export function openReadOnly(path: string): Database | undefined {
  const uri = `file:${encodeURI(path).replace(/\?/g, "%3F").replace(/#/g, "%23")}?immutable=1`;
  const attempts: (() => Database)[] = [
    () => new Database(path, { readonly: true, strict: true }),
    () => new Database(uri, sqliteFlags.SQLITE_OPEN_READONLY | sqliteFlags.SQLITE_OPEN_URI),
  ];
  for (const attempt of attempts) {
    let db: Database | undefined;
    try {
      db = attempt();
      db.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
      db.query("SELECT count(*) FROM sqlite_master").get();
      return db;
    } catch {
      db?.close();
    }
  }
  return undefined;
}

/**
 * An empty database in memory with the current schema, refusing writes: the state of a config dir
 * that cannot be created (read-only, `HOME` unwritable, `/`), so that reads find nothing stored
 * instead of failing, and every write still fails with the spec's readonly message.
 */
function emptyReadOnly(): Database {
  const db = new Database(":memory:", { strict: true });
  repairSchema(db);
  db.run("PRAGMA query_only = ON");
  return db;
}

/** A lazily opened database for one process: opened on first use, degraded to read-only with one warning. */
export function createStore(configDir: string, autoRepair: () => boolean, log: () => Logger): StoreHandle {
  let db: Database | undefined;
  let failure: CliError | undefined;
  let warned = false;
  let readOnly = false;
  let empty = false;
  const warn = (text: string) => {
    if (warned) return;
    warned = true;
    log().warn(`Local state unavailable, continuing without cache: ${text}`);
  };
  const open = (): Database => {
    if (db) return db;
    if (failure) throw failure;
    try {
      db = openDatabase(configDir, { autoRepair: autoRepair() });
      return db;
    } catch (err) {
      failure = err instanceof CliError ? err : describeDbError(err, dbPath(configDir));
      if (failure.message !== "attempt to write a readonly database") throw failure;
      // An existing database in a read-only place can still be read; a missing one reads as empty.
      const path = dbPath(configDir);
      const ro = existsSync(path) ? openReadOnly(path) : undefined;
      if (ro || !existsSync(path)) {
        db = ro ?? emptyReadOnly();
        readOnly = true;
        empty = !ro;
        return db;
      }
      throw failure;
    }
  };
  return {
    open,
    tryOpen() {
      try {
        const opened = open();
        // Nothing can be kept between runs: say so once, where a cache was wanted.
        if (empty) warn("attempt to write a readonly database");
        return opened;
      } catch (err) {
        // A config path that is a file or a device is a mistake to report, not a cache to skip.
        if (err instanceof NotADirectoryError || err instanceof ForeignStateError) throw err;
        warn(err instanceof CliError ? err.message : String(err));
        return undefined;
      }
    },
    get readOnly() {
      return readOnly;
    },
    close() {
      db?.close();
      db = undefined;
    },
  };
}
