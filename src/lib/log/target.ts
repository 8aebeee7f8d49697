/** What a log command searches: one organization and the project ids to filter on. */
import type { TrackerContext } from "../../context.ts";
import { ResolutionError } from "../errors.ts";
import { resolveListTargets } from "../resolve/list-targets.ts";
import { getProjectId } from "../resolve/project-id.ts";
import { OrgWhereProjectExpected } from "../resolve/project-search.ts";

/** A resolved log target: one request's organization and `project` parameters. */
export interface LogTarget {
  org: string;
  /** Numeric ids, or `["-1"]` for every project of the organization. */
  projectIds: string[];
  /** `org/project`, `org/` or `org/a, org/b`, for messages and saved-cursor keys. */
  label: string;
  /** The project's slug when exactly one project is searched. */
  project?: string;
}

/**
 * Resolves a target as `issue list` does (`<org>/<project>`, `<org>/`, `<project>`, environment,
 * defaults, DSNs); a bare organization slug is taken as `<org>/`. Project ids come from the cache when known, so a known target costs no lookup.
 * Several detected projects are searched together when they share an organization.
 */
export async function resolveLogTarget(
  ctx: TrackerContext,
  target: string | undefined,
  opts: { command: string; fresh: boolean },
): Promise<LogTarget> {
  const t = await resolveListTargets(ctx, target, opts).catch((err) => {
    // `log view <id> acme`: an organization's slug alone means all its projects, as `acme/` does.
    if (err instanceof OrgWhereProjectExpected) return { mode: "org" as const, org: err.org };
    throw err;
  });
  if (t.mode === "org") return { org: t.org, projectIds: ["-1"], label: `${t.org}/` };
  const projects = t.mode === "single" ? [t.project] : t.projects;
  const orgs = [...new Set(projects.map((p) => p.org))];
  if (orgs.length > 1) {
    throw new ResolutionError(
      "Target",
      `is ambiguous: projects of ${orgs.length} organizations were detected`,
      `Name one organization or project, e.g. \`${opts.command} ${orgs[0]}/\`.`,
      projects.map((p) => `${p.org}/${p.project} (from ${p.source})`),
    );
  }
  const org = orgs[0] as string;
  const projectIds = await Promise.all(projects.map((p) => getProjectId(ctx, org, p.project, opts.fresh)));
  return {
    org,
    projectIds,
    label: projects.map((p) => `${p.org}/${p.project}`).join(", "),
    ...(projects.length === 1 ? { project: projects[0]?.project } : {}),
  };
}
