import type { Database } from "bun:sqlite";
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { CliError, ConfigError } from "../errors.ts";
import { dbPath } from "../paths.ts";
import { describeDbError, withRepair } from "./index.ts";

/** Runs a required database operation (credentials, defaults): failures are thrown as CliErrors. */
export function useDb<T>(ctx: TrackerContext, fn: (db: Database) => T): T {
  const db = ctx.store.open();
  return withRepair(db, !ctx.settings.noAutoRepair, dbPath(ctx.configDir), () => fn(db));
}

/** Runs a required write; a read-only store fails with the spec's readonly message. */
export function writeDb<T>(ctx: TrackerContext, fn: (db: Database) => T): T {
  const db = ctx.store.open();
  if (ctx.store.readOnly)
    throw describeDbError(new Error("attempt to write a readonly database"), dbPath(ctx.configDir));
  return withRepair(db, !ctx.settings.noAutoRepair, dbPath(ctx.configDir), () => fn(db));
}

/** Runs a best-effort cache operation: any database problem logs one warning and yields the fallback. */
export function useCache<T>(ctx: TrackerContext, fn: (db: Database) => T, fallback: T, write = false): T {
  const db = ctx.store.tryOpen();
  if (!db || (write && ctx.store.readOnly)) return fallback;
  try {
    return withRepair(db, !ctx.settings.noAutoRepair, dbPath(ctx.configDir), () => fn(db));
  } catch (err) {
    if (!ctx.said.has("cache-skipped")) {
      ctx.said.add("cache-skipped");
      ctx.log.warn(`Local cache skipped: ${err instanceof CliError ? err.message : String(err)}`);
    }
    return fallback;
  }
}

/** Validates a row read back from the database; a damaged row is a ConfigError, never a crash. */
export function parseRow<T>(schema: v.GenericSchema<unknown, T>, row: unknown, table: string): T {
  const r = v.safeParse(schema, row);
  if (r.success) return r.output;
  throw new ConfigError(
    `A row in the local table '${table}' has an unexpected shape (${r.issues[0]?.message ?? "invalid"}).`,
    "Run `tracker cli fix`, or log in again to rewrite it.",
  );
}
