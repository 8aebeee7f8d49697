import type { TrackerContext } from "../../context.ts";
import { listOrganizations } from "../api/organizations.ts";
import { getProject, listProjects } from "../api/projects.ts";
import { FAN_OUT_CONCURRENCY, settleLimit } from "../concurrency.ts";
import { ApiError, AuthError, ResolutionError } from "../errors.ts";
import type { ResolvedProject, ResolveOptions } from "./target.ts";

/** Slugs of projects that equal `slug` except for case, as `org/project`, across the given orgs. */
async function caseVariants(ctx: TrackerContext, orgs: readonly string[], slug: string): Promise<string[]> {
  const lists = await settleLimit(orgs, FAN_OUT_CONCURRENCY, (o) => listProjects(ctx, o));
  const out: string[] = [];
  lists.forEach((r, i) => {
    if (r.status !== "fulfilled") return;
    for (const p of r.value)
      if (p.slug.toLowerCase() === slug.toLowerCase()) out.push(`${orgs[i]}/${p.slug}`);
  });
  return out;
}

/**
 * Finds a project slug across every organization (all regions, in parallel, bounded): one match
 * is used; several or none are ResolutionErrors (none suggests a case variant when one exists).
 */
export async function findProjectAcrossOrgs(
  ctx: TrackerContext,
  slug: string,
  opts: ResolveOptions,
): Promise<ResolvedProject> {
  const orgs = (await listOrganizations(ctx, { fresh: opts.fresh })).map((o) => o.slug);
  const results = await settleLimit(orgs, FAN_OUT_CONCURRENCY, (o) => getProject(ctx, o, slug));
  const matches: string[] = [];
  for (const [i, r] of results.entries()) {
    if (r.status === "fulfilled") {
      // The path also accepts numeric ids; only an exact slug is a match.
      if (r.value.slug === slug) matches.push(orgs[i] as string);
    } else if (r.reason instanceof AuthError) throw r.reason;
    else if (!(r.reason instanceof ApiError && (r.reason.status === 404 || r.reason.status === 403)))
      throw r.reason;
  }
  ctx.log.debug(`Target: project ${slug} found in ${matches.length} organization(s)`);
  if (matches.length === 1) return { org: matches[0] as string, project: slug, source: "argument" };
  if (matches.length > 1) {
    throw new ResolutionError(
      `Project '${slug}'`,
      `exists in ${matches.length} organizations`,
      `Name it with its organization, e.g. \`${opts.command} ${matches[0]}/${slug}\`.`,
      matches.map((o) => `${o}/${slug}`),
    );
  }
  const variants = await caseVariants(ctx, orgs, slug);
  if (variants.length > 0) {
    throw new ResolutionError(
      `Project '${slug}'`,
      "was not found in any organization you can access",
      `Did you mean ${variants.join(" or ")}? Slugs are case-sensitive.`,
    );
  }
  throw new ResolutionError(
    `Project '${slug}'`,
    "was not found in any organization you can access",
    "Run `tracker project list <org>` to see the projects (slugs are case-sensitive).",
  );
}
