import type { TrackerContext } from "../../context.ts";
import { listOrganizations } from "../api/organizations.ts";
import { getProject, listProjects } from "../api/projects.ts";
import { FAN_OUT_CONCURRENCY, settleLimit } from "../concurrency.ts";
import { ApiError, AuthError, ResolutionError } from "../errors.ts";
import { nearMatches } from "../near.ts";
import type { ResolvedProject, ResolveOptions } from "./target.ts";
import { quoteWord } from "../shell-quote.ts";

/** Projects near `slug` (same but for case, or a typo away), as `org/project`, across the given orgs. */
async function nearProjects(ctx: TrackerContext, orgs: readonly string[], slug: string): Promise<string[]> {
  const lists = await settleLimit(orgs, FAN_OUT_CONCURRENCY, (o) => listProjects(ctx, o));
  const all: string[] = [];
  lists.forEach((r, i) => {
    if (r.status === "fulfilled") for (const p of r.value) all.push(`${orgs[i]}/${p.slug}`);
  });
  const bySlug = new Map<string, string[]>();
  for (const full of all) {
    const p = full.slice(full.indexOf("/") + 1);
    bySlug.set(p, [...(bySlug.get(p) ?? []), full]);
  }
  return nearMatches(slug, bySlug.keys()).flatMap((p) => bySlug.get(p) ?? []);
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
  if (orgs.includes(slug)) {
    // An organization's slug where a project was expected (`trace list acme`).
    throw new OrgWhereProjectExpected(
      slug,
      `Name a project: \`${opts.command} ${quoteWord(`${slug}/`)}<project>\` (\`tracker project list ${quoteWord(slug)}\` lists them).`,
    );
  }
  const variants = await nearProjects(ctx, orgs, slug);
  if (variants.length > 0) {
    const caseOnly = variants.some((v) => v.slice(v.indexOf("/") + 1).toLowerCase() === slug.toLowerCase());
    throw new ResolutionError(
      `Project '${slug}'`,
      "was not found in any organization you can access",
      `Did you mean ${variants.join(" or ")}?${caseOnly ? " Slugs are case-sensitive." : ""}`,
    );
  }
  throw new ResolutionError(
    `Project '${slug}'`,
    "was not found in any organization you can access",
    "Run `tracker project list <org>` to see the projects (slugs are case-sensitive).",
  );
}

/** A bare word that names an organization, not a project: commands that take `<org>/` may use it so. */
export class OrgWhereProjectExpected extends ResolutionError {
  constructor(
    readonly org: string,
    hint: string,
  ) {
    super(`'${org}'`, "is an organization, not a project", hint);
  }
}
