/**
 * The `attribute_keys` table: query fields and tags per service, organization and dataset, saved
 * by `attribute list` for completion (local only, best effort).
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { useCache } from "./access.ts";

/** How long saved keys are offered by completion. */
export const ATTRIBUTE_KEYS_TTL_MS = 7 * 86_400_000;
/** Most keys kept per organization and dataset. */
export const ATTRIBUTE_KEYS_MAX = 2_000;

const Row = v.object({ keys_json: v.string() });
const Keys = v.array(v.string());

/** Remembers the keys of a dataset in an organization (replacing the previous set). */
export function saveAttributeKeys(
  ctx: TrackerContext,
  org: string,
  dataset: string,
  keys: readonly string[],
): void {
  const text = JSON.stringify([...new Set(keys)].slice(0, ATTRIBUTE_KEYS_MAX));
  useCache(
    ctx,
    (db) => {
      db.run(
        "INSERT OR REPLACE INTO attribute_keys (base_url, org, dataset, keys_json, updated_at) VALUES (?, ?, ?, ?, ?)",
        [ctx.settings.baseUrl, org, dataset, text, ctx.now()],
      );
    },
    undefined,
    true,
  );
}

/** The saved keys of a dataset, every organization of the current service together, recent ones only. */
export function cachedAttributeKeys(ctx: TrackerContext, dataset: string): string[] {
  return useCache(
    ctx,
    (db) => {
      const rows = db
        .query("SELECT keys_json FROM attribute_keys WHERE base_url = ? AND dataset = ? AND updated_at > ?")
        .all(ctx.settings.baseUrl, dataset, ctx.now() - ATTRIBUTE_KEYS_TTL_MS);
      const out = new Set<string>();
      for (const row of rows) {
        const r = v.safeParse(Row, row);
        if (!r.success) continue;
        let parsed: unknown;
        try {
          parsed = JSON.parse(r.output.keys_json);
        } catch {
          continue;
        }
        const keys = v.safeParse(Keys, parsed);
        if (keys.success) for (const k of keys.output) out.add(k);
      }
      return [...out];
    },
    [],
  );
}
