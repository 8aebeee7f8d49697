/**
 * Stored logins, one per service URL (`logins`, keyed by base URL), several side by side. The
 * single-row `auth` table of earlier versions is read as a legacy login and absorbed into `logins`
 * by the schema repair and by every write; a legacy row whose service URL is unknown is never used
 * for any service (it can only be replaced or removed).
 */
import type { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import * as v from "valibot";
import type { StoreHandle, TrackerContext } from "../../context.ts";
import { dbPath } from "../paths.ts";
import { parseRow, useDb, writeDb } from "./access.ts";
import { LEGACY_MOVES } from "./schema.ts";

const CredentialsRow = v.object({
  token: v.pipe(v.string(), v.minLength(1)),
  refresh_token: v.nullable(v.string()),
  expires_at: v.nullable(v.number()),
  issued_at: v.nullable(v.number()),
  updated_at: v.number(),
  kind: v.nullable(v.string()),
  base_url: v.nullable(v.string()),
  user_json: v.nullable(v.string()),
  client_id: v.nullable(v.string()),
  scopes: v.optional(v.nullable(v.string())),
});
/** Stored credentials as read back (validated) from the database. */
export type StoredCredentials = v.InferOutput<typeof CredentialsRow>;

const LEGACY_COLUMNS =
  "token, refresh_token, expires_at, issued_at, updated_at, kind, base_url, user_json, client_id";
const COLUMNS = `${LEGACY_COLUMNS}, scopes`;

/** Moves the legacy single-row login into `logins` (a login already there for its URL wins). */
export function absorbLegacyLogin(db: Database): void {
  for (const sql of LEGACY_MOVES) db.run(sql);
}

function legacyRow(db: Database): StoredCredentials | undefined {
  const row = db.query(`SELECT ${LEGACY_COLUMNS} FROM auth WHERE id = 1`).get();
  return row ? parseRow(CredentialsRow, row, "auth") : undefined;
}

/**
 * The stored login for a service URL (the current one by default). A legacy login whose URL is
 * unknown is returned as well, so the caller can refuse it with the right message.
 */
export function readCredentials(
  ctx: TrackerContext,
  baseUrl: string = ctx.settings.baseUrl,
): StoredCredentials | undefined {
  return useDb(ctx, (db) => {
    const row = db.query(`SELECT ${COLUMNS} FROM logins WHERE base_url = ?`).get(baseUrl);
    if (row) return parseRow(CredentialsRow, row, "logins");
    const legacy = legacyRow(db);
    return legacy && (legacy.base_url === baseUrl || !legacy.base_url) ? legacy : undefined;
  });
}

/** Every stored login, by service URL (a legacy one included until it is absorbed). */
export function listLogins(ctx: TrackerContext): StoredCredentials[] {
  return useDb(ctx, (db) => {
    const rows = db
      .query(`SELECT ${COLUMNS} FROM logins ORDER BY base_url`)
      .all()
      .map((r) => parseRow(CredentialsRow, r, "logins"));
    const legacy = legacyRow(db);
    if (legacy?.base_url && !rows.some((r) => r.base_url === legacy.base_url)) rows.push(legacy);
    return rows;
  });
}

/**
 * The service URLs of the stored logins other than the current one. Only ever used to say more
 * (notes, hints): an unreadable store gives none rather than failing what was being reported.
 */
export function otherLoginUrls(ctx: TrackerContext): string[] {
  try {
    return listLogins(ctx)
      .map((l) => l.base_url)
      .filter((u): u is string => !!u && u !== ctx.settings.baseUrl);
  } catch {
    return [];
  }
}

/** Stores (or replaces) the login of `c.base_url` in one transaction; other logins stay. */
export function writeCredentials(
  ctx: TrackerContext,
  c: Omit<StoredCredentials, "updated_at" | "client_id" | "base_url" | "scopes"> & {
    base_url: string;
    client_id?: string | null;
    scopes?: string | null;
  },
): void {
  writeDb(ctx, (db) => {
    db.transaction(() => {
      absorbLegacyLogin(db);
      // A legacy login of unknown service cannot be used; a new login takes its place.
      db.run("DELETE FROM auth");
      db.run(`INSERT OR REPLACE INTO logins (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
        c.token,
        c.refresh_token,
        c.expires_at,
        c.issued_at,
        ctx.now(),
        c.kind,
        c.base_url,
        c.user_json,
        c.client_id ?? null,
        c.scopes ?? null,
      ]);
    })();
  });
}

/**
 * Removes stored logins: the one of `which` (a service URL), or every one (`"all"`). A legacy
 * login of unknown service is removed with any of them. Returns the URLs removed.
 */
export function clearCredentials(
  ctx: TrackerContext,
  which: string | "all" = ctx.settings.baseUrl,
): string[] {
  return writeDb(ctx, (db) =>
    db.transaction(() => {
      absorbLegacyLogin(db);
      const removed = (
        (which === "all"
          ? db.query("SELECT base_url FROM logins ORDER BY base_url").all()
          : db.query("SELECT base_url FROM logins WHERE base_url = ?").all(which)) as { base_url: string }[]
      ).map((r) => r.base_url);
      if (which === "all") db.run("DELETE FROM logins");
      else db.run("DELETE FROM logins WHERE base_url = ?", [which]);
      const unknown = db.run("DELETE FROM auth").changes > 0;
      return unknown && removed.length === 0 ? ["(a login of unknown service)"] : removed;
    })(),
  );
}

/**
 * Within the refresh path's own write transaction (it holds the lock across the token request):
 * the login's rotated tokens, or its removal when the refresh token was rejected.
 */
export const refreshedCredentials = {
  save(
    db: Database,
    c: Pick<
      StoredCredentials,
      "token" | "refresh_token" | "expires_at" | "issued_at" | "updated_at" | "base_url"
    >,
  ): void {
    absorbLegacyLogin(db);
    db.run(
      "UPDATE logins SET token = ?, refresh_token = ?, expires_at = ?, issued_at = ?, updated_at = ? WHERE base_url = ?",
      [c.token, c.refresh_token, c.expires_at, c.issued_at, c.updated_at, c.base_url],
    );
  },
  drop(db: Database, baseUrl: string | null): void {
    absorbLegacyLogin(db);
    db.run("DELETE FROM logins WHERE base_url = ?", [baseUrl]);
  },
};

/**
 * The service URL of the only stored login, when exactly one is stored; undefined otherwise and on
 * any problem (quietly: the command that needs the database reports those itself). Used for the
 * service URL when TRACKER_URL is unset, as `gh` uses its one authenticated host.
 */
export function soleLoginUrl(store: StoreHandle, configDir: string): string | undefined {
  if (!existsSync(dbPath(configDir))) return undefined;
  let db: Database;
  try {
    db = store.open();
  } catch {
    return undefined;
  }
  const urls = new Set<string>();
  const collect = (sql: string) => {
    try {
      for (const r of db.query(sql).all() as { base_url: unknown }[])
        if (typeof r.base_url === "string" && r.base_url !== "") urls.add(r.base_url);
    } catch {
      // A table this version has not created yet (auto-repair off): nothing from it.
    }
  };
  collect("SELECT base_url FROM logins");
  collect("SELECT base_url FROM auth WHERE id = 1");
  return urls.size === 1 ? [...urls][0] : undefined;
}
