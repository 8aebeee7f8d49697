import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { fuzzEnv, runCase, scratch, useFuzzWorld, violation } from "./harness.ts";

/** Commands that read or write local state. */
const COMMANDS: string[][] = [
  ["issue", "list", "acme/web", "-n", "2", "--json"],
  ["defaults", "--json"],
  ["defaults", "set", "acme/web"],
  ["auth", "status", "--json"],
  ["auth", "login", "--token", USER_TOKEN],
  ["cli", "fix"],
  ["trace", "list", "acme/web", "-c", "last"],
];

/** Broken local states: each prepares a config dir (after one normal run created the database). */
const STATES: Record<string, (dir: string) => void> = {
  "garbage file": (dir) => writeFileSync(join(dir, "tracker.db"), "this is not a database".repeat(100)),
  "truncated database": (dir) => {
    const path = join(dir, "tracker.db");
    writeFileSync(path, readFileSync(path).subarray(0, 1000));
  },
  "future schema version": (dir) => {
    const db = new Database(join(dir, "tracker.db"));
    db.run("UPDATE meta SET value = '999' WHERE key = 'schema_version'");
    db.close();
  },
  "a table dropped": (dir) => {
    const db = new Database(join(dir, "tracker.db"));
    db.run("DROP TABLE defaults");
    db.run("DROP TABLE cursors");
    db.close();
  },
  "a column missing": (dir) => {
    const db = new Database(join(dir, "tracker.db"));
    db.run("ALTER TABLE auth DROP COLUMN refresh_token");
    db.close();
  },
  "garbage WAL": (dir) => writeFileSync(join(dir, "tracker.db-wal"), "x".repeat(5000)),
  "read-only directory": (dir) => chmodSync(dir, 0o555),
  "bad stored row": (dir) => {
    const db = new Database(join(dir, "tracker.db"));
    db.run("UPDATE meta SET value = 'x' WHERE key = 'schema_version'");
    db.run("INSERT OR REPLACE INTO defaults (id, org, project) VALUES (1, '../../x', '\x1b[2J')");
    db.close();
  },
};

const world = useFuzzWorld();
const dirs = world.dirs;
// Directories made read-only by a case are opened again before they are removed.
afterAll(() => {
  for (const d of dirs) if (existsSync(d)) chmodSync(d, 0o755);
});

test("corrupt, old, future, read-only and locked databases", async () => {
  const failures: string[] = [];
  let ran = 0;
  for (const [state, prepare] of Object.entries(STATES)) {
    for (const argv of COMMANDS) {
      const cwd = scratch("tracker-fuzz-ws-", dirs);
      const configDir = scratch("tracker-fuzz-cfg-", dirs);
      const env = fuzzEnv(world.api().url, cwd, configDir);
      const first = await runCase({ argv: ["defaults", "set", "acme/web"], env, cwd });
      if (first.exitCode !== 0) throw new Error(`setup failed: ${first.stderr}`);
      try {
        prepare(configDir);
      } catch (err) {
        failures.push(`${state}: could not prepare (${(err as Error).message})`);
        continue;
      }
      const before = existsSync(join(configDir, "tracker.db"))
        ? readFileSync(join(configDir, "tracker.db"))
        : undefined;
      const kase = { argv, env, cwd, deadlineMs: 20_000 };
      const r = await runCase(kase);
      ran++;
      const why = violation(kase, r, [USER_TOKEN]);
      if (why) failures.push(`${state}: ${JSON.stringify(argv)} → ${why}`);
      // A damaged database is reported, never deleted or replaced.
      if (before && !existsSync(join(configDir, "tracker.db")))
        failures.push(`${state}: ${argv.join(" ")} deleted the database`);
      chmodSync(configDir, 0o755);
    }
  }
  // Locked: another connection holds the write lock for longer than the busy timeout (a writer;
  // it waits the whole 10 s timeout, so not every command).
  for (const argv of [COMMANDS[2] as string[]]) {
    const cwd = scratch("tracker-fuzz-ws-", dirs);
    const configDir = scratch("tracker-fuzz-cfg-", dirs);
    const env = fuzzEnv(world.api().url, cwd, configDir);
    await runCase({ argv: ["defaults", "set", "acme/web"], env, cwd });
    const holder = new Database(join(configDir, "tracker.db"));
    holder.run("BEGIN EXCLUSIVE");
    const kase = { argv, env, cwd, deadlineMs: 30_000 };
    const r = await runCase(kase);
    holder.run("ROLLBACK");
    holder.close();
    ran++;
    const why = violation(kase, r, [USER_TOKEN]);
    if (why) failures.push(`locked: ${JSON.stringify(argv)} → ${why}`);
  }
  console.log(`fuzz db: ${ran} cases, ${failures.length} failures`);
  expect(failures).toEqual([]);
}, 300_000);
