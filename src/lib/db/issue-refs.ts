/**
 * The issue_refs table: what an issue reference resolved to before (`acme/WEB-1`, a short id found
 * in exactly one organization, a numeric id) → organization and numeric id, so a later command
 * asks for the issue directly (one round trip, issue and latest event in parallel). Entries expire
 * after ISSUE_REF_TTL_MS; a 404/403 on a cached mapping re-resolves without it.
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { parseRow, useCache } from "./access.ts";

/** How long a remembered reference is used. */
export const ISSUE_REF_TTL_MS = 30 * 24 * 60 * 60 * 1000;

const Row = v.object({ org: v.string(), issue_id: v.string(), updated_at: v.number() });

/** The cached organization and numeric id of a reference key, if fresh. */
export function readIssueRef(ctx: TrackerContext, key: string): { org: string; id: string } | undefined {
  return useCache(
    ctx,
    (db) => {
      const row = db
        .query("SELECT org, issue_id, updated_at FROM issue_refs WHERE base_url = ? AND ref = ?")
        .get(ctx.settings.baseUrl, key);
      if (!row) return undefined;
      const r = parseRow(Row, row, "issue_refs");
      return ctx.now() - r.updated_at > ISSUE_REF_TTL_MS ? undefined : { org: r.org, id: r.issue_id };
    },
    undefined,
  );
}

/** Remembers what reference keys resolved to. */
export function writeIssueRefs(ctx: TrackerContext, keys: readonly string[], org: string, id: string): void {
  useCache(
    ctx,
    (db) => {
      const q = db.query(
        "INSERT OR REPLACE INTO issue_refs (base_url, ref, org, issue_id, updated_at) VALUES (?, ?, ?, ?, ?)",
      );
      db.transaction(() => {
        for (const k of keys) q.run(ctx.settings.baseUrl, k, org, id, ctx.now());
      })();
    },
    undefined,
    true,
  );
}

/** Forgets reference keys (after the service said the mapping is stale). */
export function dropIssueRefs(ctx: TrackerContext, keys: readonly string[]): void {
  useCache(
    ctx,
    (db) => {
      const q = db.query("DELETE FROM issue_refs WHERE base_url = ? AND ref = ?");
      for (const k of keys) q.run(ctx.settings.baseUrl, k);
    },
    undefined,
    true,
  );
}

/**
 * Remembers the references a listing printed (the any-organization key of a bare short ID, or
 * `org/SHORT-ID`): read back as input (`issue list … | cut -f1 | issue resolve -`), a bare short
 * ID means the issue the listing showed, not a namesake in another organization. One transaction.
 */
export function writeListedRefs(
  ctx: TrackerContext,
  refs: readonly { key: string; org: string; id: string }[],
): void {
  if (refs.length === 0) return;
  useCache(
    ctx,
    (db) => {
      const q = db.query(
        "INSERT OR REPLACE INTO issue_refs (base_url, ref, org, issue_id, updated_at) VALUES (?, ?, ?, ?, ?)",
      );
      db.transaction(() => {
        for (const r of refs) q.run(ctx.settings.baseUrl, r.key, r.org, r.id, ctx.now());
      })();
    },
    undefined,
    true,
  );
}

/** The most recently resolved issue references, `org/SHORT-ID` form (shell completion). */
export function recentIssueRefs(ctx: TrackerContext, limit = 50): string[] {
  return useCache(
    ctx,
    (db) =>
      (
        db
          .query(
            "SELECT ref FROM issue_refs WHERE base_url = ? AND ref NOT LIKE '#%' AND ref NOT LIKE '*/%' ORDER BY updated_at DESC LIMIT ?",
          )
          .all(ctx.settings.baseUrl, limit) as { ref: string }[]
      ).map((r) => r.ref),
    [],
  );
}
