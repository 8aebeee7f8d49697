/**
 * When `tracker status` last ran, per service URL and organization: its "new issues" section asks
 * for what appeared since then. Stored in the meta table (`status-last@<base URL>/<org>`).
 */
import type { TrackerContext } from "../../context.ts";
import { useCache } from "./access.ts";
import { readMeta, writeMeta } from "./meta.ts";

function keyFor(ctx: TrackerContext, org: string): string {
  return `status-last@${ctx.settings.baseUrl}/${org}`;
}

/** The time (ms) of the last successful `status` run for an organization; undefined when none or unreadable. */
export function readStatusTime(ctx: TrackerContext, org: string): number | undefined {
  const raw = useCache(ctx, (db) => readMeta(db, keyFor(ctx, org)), undefined);
  const ms = raw === undefined ? Number.NaN : Date.parse(raw);
  return Number.isFinite(ms) ? ms : undefined;
}

/** Remembers `ms` as the last run of each organization (best effort: a read-only cache keeps the old times). */
export function writeStatusTimes(ctx: TrackerContext, orgs: readonly string[], ms: number): void {
  if (orgs.length === 0) return;
  const text = new Date(ms).toISOString();
  useCache(
    ctx,
    (db) => {
      db.transaction(() => {
        for (const org of orgs) writeMeta(db, keyFor(ctx, org), text);
      })();
    },
    undefined,
    true,
  );
}
