/**
 * Facts learned about a service (by base URL) that change which request form tracker sends, kept
 * in the `meta` table as `<fact>@<base URL>`. Best effort: an unreadable store means "not known".
 */
import type { TrackerContext } from "../../context.ts";
import { useCache } from "./access.ts";
import { readMeta, writeMeta } from "./meta.ts";

function key(ctx: TrackerContext, fact: string): string {
  return `${fact}@${ctx.settings.baseUrl}`;
}

/** The remembered value of a fact for the current service, if any. */
export function getServiceFact(ctx: TrackerContext, fact: string): string | undefined {
  return useCache(ctx, (db) => readMeta(db, key(ctx, fact)), undefined);
}

/** Remembers a fact for the current service. */
export function setServiceFact(ctx: TrackerContext, fact: string, value: string): void {
  useCache(ctx, (db) => writeMeta(db, key(ctx, fact), value), undefined, true);
}
