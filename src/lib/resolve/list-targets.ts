import type { TrackerContext } from "../../context.ts";
import { useTargetAliases } from "../db/aliases.ts";
import { ContextError } from "../errors.ts";
import {
  announceTarget,
  orgOnlyContext,
  parseTarget,
  type ResolvedProject,
  type ResolveOptions,
  resolveImplicitProjects,
  resolveOrgProject,
} from "./target.ts";

/** The alias target of a set of detected projects: `detected:` and their sorted `org/project` names. */
export function detectedTarget(projects: readonly { org: string; project: string }[]): string {
  return `detected:${[...new Set(projects.map((p) => `${p.org}/${p.project}`.toLowerCase()))].sort().join(",")}`;
}

/** What `issue list` lists: one project, several detected projects (with aliases), or a whole org. */
export type ListTarget =
  | { mode: "single"; project: ResolvedProject }
  | { mode: "multi"; projects: ResolvedProject[] }
  | { mode: "org"; org: string; source: string };

/**
 * Resolves the target of a listing: `<org>/` is org-wide; several DSN-detected projects give
 * multi-project mode, each with a short alias that is stored for `issue view <alias>-<suffix>`;
 * anything else resolves to one project.
 */
export async function resolveListTargets(
  ctx: TrackerContext,
  target: string | undefined,
  opts: ResolveOptions,
): Promise<ListTarget> {
  const parsed = parseTarget(target);
  if (parsed.kind === "org-all") return { mode: "org", org: parsed.org, source: "argument" };
  if (parsed.kind !== "none") return { mode: "single", project: await resolveOrgProject(ctx, target, opts) };
  ctx.log.debug("Target: no argument");
  let found: ResolvedProject[];
  try {
    found = await resolveImplicitProjects(ctx, opts);
  } catch (err) {
    // An organization without a project (and no DSN of it here): the whole organization.
    const only = err instanceof ContextError ? orgOnlyContext(ctx) : undefined;
    if (!only) throw err;
    ctx.log.debug(`Target: ${only.source} names organization ${only.org} only; listing all its projects`);
    return { mode: "org", org: only.org, source: only.source };
  }
  if (found.length === 1) {
    const only = found[0] as ResolvedProject;
    announceTarget(ctx, only);
    return { mode: "single", project: only };
  }
  // The set of detected projects is the target: its aliases keep their meaning across runs.
  const byKey = new Map(
    useTargetAliases(ctx, detectedTarget(found), found).map((e) => [
      `${e.org}/${e.project}`.toLowerCase(),
      e.alias,
    ]),
  );
  const projects = found.map((p) => ({
    ...p,
    alias: byKey.get(`${p.org}/${p.project}`.toLowerCase()) ?? p.project.toLowerCase(),
  }));
  ctx.log.info(
    `Using ${projects.length} detected projects: ${projects.map((p) => `${p.org}/${p.project} (${p.alias}, from ${p.source})`).join(", ")}`,
  );
  return { mode: "multi", projects };
}
