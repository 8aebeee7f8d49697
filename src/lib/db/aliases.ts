/**
 * Aliases of listed projects. `target_aliases` keeps every alias a target (an org, or a set of
 * detected projects) ever showed, so an alias keeps its meaning; `aliases` holds the set of the
 * latest aliased listing's target, which `<alias>-<suffix>` references are resolved against.
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { extendAliases, type TargetAlias } from "../resolve/aliases.ts";
import { parseRow, useCache } from "./access.ts";
import { readMeta, writeMeta } from "./meta.ts";

/** A stored alias of a detected project (used as `<alias>-<suffix>` issue references). */
export type AliasEntry = TargetAlias;

const AliasRow = v.object({ alias: v.string(), org: v.string(), project: v.string() });

/** The meta key naming the target the current aliases belong to. */
const ACTIVE_TARGET = "alias_target";

/** Replaces the current aliases (and their target) without remembering them per target. */
export function saveAliases(ctx: TrackerContext, entries: readonly AliasEntry[], target = ""): void {
  useCache(
    ctx,
    (db) => {
      const q = db.query(
        "INSERT OR REPLACE INTO aliases (alias, org, project, updated_at) VALUES (?, ?, ?, ?)",
      );
      db.transaction(() => {
        db.run("DELETE FROM aliases");
        for (const e of entries) q.run(e.alias.toLowerCase(), e.org, e.project, ctx.now());
        writeMeta(db, ACTIVE_TARGET, target);
      })();
    },
    undefined,
    true,
  );
}

/**
 * The aliases of `target` for `projects`: the ones given before are kept, new projects get new
 * aliases, and the whole set becomes the current one. Falls back to a fresh computation when the
 * store cannot be used (the aliases are then shown but not remembered).
 */
export function useTargetAliases(
  ctx: TrackerContext,
  target: string,
  projects: readonly { org: string; project: string }[],
): AliasEntry[] {
  const fallback = () => extendAliases([], projects);
  return useCache(
    ctx,
    (db) =>
      db
        .transaction(() => {
          const rows = db
            .query(
              "SELECT alias, org, project FROM target_aliases WHERE base_url = ? AND target = ? ORDER BY rowid",
            )
            .all(ctx.settings.baseUrl, target)
            .map((r) => parseRow(AliasRow, r, "target_aliases"));
          const all = extendAliases(rows, projects);
          const insert = db.query(
            "INSERT OR REPLACE INTO target_aliases (base_url, target, alias, org, project, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
          );
          for (const e of all.slice(rows.length))
            insert.run(ctx.settings.baseUrl, target, e.alias, e.org, e.project, ctx.now());
          const active = db.query(
            "INSERT OR REPLACE INTO aliases (alias, org, project, updated_at) VALUES (?, ?, ?, ?)",
          );
          db.run("DELETE FROM aliases");
          for (const e of all) active.run(e.alias, e.org, e.project, ctx.now());
          writeMeta(db, ACTIVE_TARGET, target);
          return all;
          // IMMEDIATE: this transaction reads before it writes (see project-cache.ts).
        })
        .immediate(),
    fallback(),
    true,
  );
}

/** The target of the current aliases (`acme/`, or `detected:…` for detected projects), if any. */
export function activeAliasTarget(ctx: TrackerContext): string | undefined {
  return useCache(
    ctx,
    (db) => {
      const hasAliases = db.query("SELECT 1 FROM aliases LIMIT 1").get() !== null;
      const value = readMeta(db, ACTIVE_TARGET);
      return hasAliases ? value : undefined;
    },
    undefined,
  );
}

/** The project an alias stands for, if stored (aliases are case-insensitive). */
export function lookupAlias(ctx: TrackerContext, alias: string): AliasEntry | undefined {
  return useCache(
    ctx,
    (db) => {
      const row = db
        .query("SELECT alias, org, project FROM aliases WHERE alias = ?")
        .get(alias.toLowerCase());
      return row ? parseRow(AliasRow, row, "aliases") : undefined;
    },
    undefined,
  );
}
