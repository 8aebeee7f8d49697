import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { readCredentials, refreshedCredentials, type StoredCredentials } from "../db/auth.ts";
import { describeDbError } from "../db/index.ts";
import { ApiError, AuthError, NetworkError } from "../errors.ts";
import { apiRequest } from "../http/client.ts";
import { dbPath } from "../paths.ts";
import { oauthClientId } from "./client-id.ts";

/** Refresh proactively once less than this fraction of the token's lifetime remains. */
export const REFRESH_REMAINING_FRACTION = 0.1;
/** Lifetime assumed when the issue time is unknown. */
export const DEFAULT_LIFETIME_MS = 60 * 60 * 1000;
/** Refresh requests must finish well inside the database busy timeout other processes wait for. */
export const REFRESH_TIMEOUT_MS = 8_000;

/** The token endpoint's success body (device grant and refresh grant). */
export const TokenResponse = v.object({
  access_token: v.pipe(v.string(), v.minLength(1)),
  refresh_token: v.optional(v.nullable(v.string())),
  token_type: v.optional(v.string()),
  expires_in: v.optional(v.nullable(v.number())),
  scope: v.optional(v.string()),
  user: v.optional(
    v.object({
      id: v.optional(v.string()),
      name: v.optional(v.nullable(v.string())),
      email: v.optional(v.nullable(v.string())),
    }),
  ),
});

const TokenEndpointBody = v.union([
  TokenResponse,
  v.object({ error: v.string(), error_description: v.optional(v.string()) }),
]);

/** True when stored credentials should be refreshed before use. */
export function needsRefresh(c: StoredCredentials, now: number): boolean {
  if (c.expires_at === null) return false;
  const lifetime =
    c.issued_at !== null && c.expires_at > c.issued_at ? c.expires_at - c.issued_at : DEFAULT_LIFETIME_MS;
  return c.expires_at - now < lifetime * REFRESH_REMAINING_FRACTION;
}

/** Returns usable stored credentials, refreshing them first when they are close to expiry. */
export async function ensureFreshCredentials(
  ctx: TrackerContext,
  stored: StoredCredentials,
): Promise<StoredCredentials> {
  if (!needsRefresh(stored, ctx.now())) return stored;
  if (!stored.refresh_token) {
    if (stored.expires_at !== null && stored.expires_at <= ctx.now()) {
      throw new AuthError("expired", "Session expired and no refresh token available");
    }
    return stored;
  }
  return refreshShared(ctx, stored.token, false);
}

/** Forces one refresh after a 401 (unless another process already replaced the token). */
export async function forceRefresh(ctx: TrackerContext, usedToken: string): Promise<StoredCredentials> {
  return refreshShared(ctx, usedToken, true);
}

/**
 * One refresh per run at a time: parallel requests of one command (region fan-out) share the
 * refresh in flight, because a second BEGIN on the same connection would fail.
 */
function refreshShared(ctx: TrackerContext, usedToken: string, forced: boolean): Promise<StoredCredentials> {
  const running = ctx.inFlight.get("refresh") as Promise<StoredCredentials> | undefined;
  if (running) return running;
  const next = refreshLocked(ctx, usedToken, forced).finally(() => {
    ctx.inFlight.delete("refresh");
  });
  ctx.inFlight.set("refresh", next);
  return next;
}

/**
 * Refreshes under the database's write lock: a second process waiting on the lock sees the new
 * token when it gets in and reuses it instead of spending the (rotated) refresh token again.
 */
async function refreshLocked(
  ctx: TrackerContext,
  usedToken: string,
  forced: boolean,
): Promise<StoredCredentials> {
  const db = ctx.store.open();
  if (ctx.store.readOnly)
    throw describeDbError(new Error("attempt to write a readonly database"), dbPath(ctx.configDir));
  try {
    db.run("BEGIN IMMEDIATE");
  } catch (err) {
    throw describeDbError(err, dbPath(ctx.configDir));
  }
  let done = false;
  try {
    const current = readCredentials(ctx);
    if (!current) throw new AuthError("not_authenticated");
    // Another process refreshed while we waited for the lock: reuse its token.
    const replaced = current.token !== usedToken;
    if (replaced && !needsRefresh(current, ctx.now())) {
      ctx.log.debug("Using the token another tracker process just refreshed");
      db.run("COMMIT");
      done = true;
      return current;
    }
    if (!forced && !replaced && !needsRefresh(current, ctx.now())) {
      db.run("COMMIT");
      done = true;
      return current;
    }
    if (!current.refresh_token)
      throw new AuthError("expired", "Session expired and no refresh token available");
    ctx.log.addSecret(current.refresh_token);
    ctx.log.debug("Refreshing the stored OAuth token");
    const res = await apiRequest(ctx, {
      method: "POST",
      path: "/oauth/token/",
      host: "control",
      auth: false,
      retry: false,
      timeoutMs: REFRESH_TIMEOUT_MS,
      form: {
        grant_type: "refresh_token",
        refresh_token: current.refresh_token,
        client_id: current.client_id ?? oauthClientId(ctx),
      },
      schema: TokenEndpointBody,
      acceptStatuses: [400, 401],
    }).catch((err) => {
      // Not a rejection (no answer, or a server-side failure): keep the credentials for a later try.
      if (err instanceof NetworkError || (err instanceof ApiError && err.status >= 500)) throw err;
      throw new AuthError("expired");
    });
    if ("error" in res.data) {
      refreshedCredentials.drop(db, current.base_url);
      db.run("COMMIT");
      done = true;
      throw new AuthError("expired", `Authentication expired (${res.data.error})`);
    }
    const now = ctx.now();
    const t = res.data;
    ctx.log.addSecret(t.access_token);
    const next: StoredCredentials = {
      ...current,
      token: t.access_token,
      refresh_token: t.refresh_token ?? current.refresh_token,
      expires_at: typeof t.expires_in === "number" ? now + t.expires_in * 1000 : null,
      issued_at: now,
      updated_at: now,
    };
    refreshedCredentials.save(db, next);
    db.run("COMMIT");
    done = true;
    return next;
  } finally {
    if (!done) {
      try {
        db.run("ROLLBACK");
      } catch {
        // no transaction open any more
      }
    }
  }
}
