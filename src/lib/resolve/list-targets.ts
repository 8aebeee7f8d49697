import type { TrackerContext } from "../../context.ts";
import { parseTarget, type ResolvedProject, type ResolveOptions, resolveOrgProject } from "./target.ts";

/** What `issue list` lists: one project, several detected projects (with aliases), or a whole org. */
export type ListTarget =
  | { mode: "single"; project: ResolvedProject }
  | { mode: "multi"; projects: ResolvedProject[] }
  | { mode: "org"; org: string; source: string };

/**
 * Resolves the target of a listing: `<org>/` is org-wide; several DSN-detected projects give
 * multi-project mode (each with an alias); anything else resolves to one project.
 */
export async function resolveListTargets(
  ctx: TrackerContext,
  target: string | undefined,
  opts: ResolveOptions,
): Promise<ListTarget> {
  const parsed = parseTarget(target);
  if (parsed.kind === "org-all") return { mode: "org", org: parsed.org, source: "argument" };
  return { mode: "single", project: await resolveOrgProject(ctx, target, opts) };
}
