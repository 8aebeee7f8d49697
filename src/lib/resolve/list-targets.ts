import type { TrackerContext } from "../../context.ts";
import { saveAliases } from "../db/aliases.ts";
import { ContextError } from "../errors.ts";
import { computeAliases } from "./aliases.ts";
import {
  announceTarget,
  orgOnlyContext,
  parseTarget,
  type ResolvedProject,
  type ResolveOptions,
  resolveImplicitProjects,
  resolveOrgProject,
} from "./target.ts";

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
  const aliases = computeAliases(found);
  const projects = found.map((p, i) => ({ ...p, alias: aliases[i] as string }));
  saveAliases(
    ctx,
    projects.map((p) => ({ alias: p.alias, org: p.org, project: p.project })),
  );
  ctx.log.info(
    `Using ${projects.length} detected projects: ${projects.map((p) => `${p.org}/${p.project} (${p.alias}, from ${p.source})`).join(", ")}`,
  );
  return { mode: "multi", projects };
}
