import type { Database } from "bun:sqlite";
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { parseRow, useDb, writeDb } from "./access.ts";

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
});
/** Stored credentials as read back (validated) from the database. */
export type StoredCredentials = v.InferOutput<typeof CredentialsRow>;

/** The stored credentials, if any. */
export function readCredentials(ctx: TrackerContext): StoredCredentials | undefined {
  return useDb(ctx, (db) => {
    const row = db
      .query(
        "SELECT token, refresh_token, expires_at, issued_at, updated_at, kind, base_url, user_json, client_id FROM auth WHERE id = 1",
      )
      .get();
    return row ? parseRow(CredentialsRow, row, "auth") : undefined;
  });
}

/** Replaces the stored credentials in one transaction. */
export function writeCredentials(
  ctx: TrackerContext,
  c: Omit<StoredCredentials, "updated_at" | "client_id"> & { client_id?: string | null },
): void {
  writeDb(ctx, (db) => {
    db.run(
      `INSERT OR REPLACE INTO auth (id, token, refresh_token, expires_at, issued_at, updated_at, kind, base_url, user_json, client_id)
       VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        c.token,
        c.refresh_token,
        c.expires_at,
        c.issued_at,
        ctx.now(),
        c.kind,
        c.base_url,
        c.user_json,
        c.client_id ?? null,
      ],
    );
  });
}

/** Removes the stored credentials; true when there were some. */
export function clearCredentials(ctx: TrackerContext): boolean {
  return writeDb(ctx, (db) => db.run("DELETE FROM auth WHERE id = 1").changes > 0);
}

/**
 * Within the refresh path's own write transaction (it holds the lock across the token request):
 * the credentials' rotated tokens, or their removal when the refresh token was rejected.
 */
export const refreshedCredentials = {
  save(
    db: Database,
    c: Pick<StoredCredentials, "token" | "refresh_token" | "expires_at" | "issued_at" | "updated_at">,
  ): void {
    db.run(
      "UPDATE auth SET token = ?, refresh_token = ?, expires_at = ?, issued_at = ?, updated_at = ? WHERE id = 1",
      [c.token, c.refresh_token, c.expires_at, c.issued_at, c.updated_at],
    );
  },
  drop(db: Database): void {
    db.run("DELETE FROM auth WHERE id = 1");
  },
};
