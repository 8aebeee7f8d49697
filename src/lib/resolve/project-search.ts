import type { TrackerContext } from "../../context.ts";
import { listOrganizations } from "../api/organizations.ts";
import { getProject } from "../api/projects.ts";
import { FAN_OUT_CONCURRENCY, settleLimit } from "../concurrency.ts";
import { ApiError, AuthError, ResolutionError } from "../errors.ts";
import type { ResolvedProject, ResolveOptions } from "./target.ts";

/** Finds a project slug across every organization (all regions, in parallel). */
export async function findProjectAcrossOrgs(
  ctx: TrackerContext,
  slug: string,
  _opts: ResolveOptions,
): Promise<ResolvedProject> {
  const orgs = await listOrganizations(ctx);
  const results = await settleLimit(orgs, FAN_OUT_CONCURRENCY, (o) => getProject(ctx, o.slug, slug));
  const matches: string[] = [];
  for (const [i, r] of results.entries()) {
    if (r.status === "fulfilled") {
      if (r.value.slug === slug) matches.push(orgs[i]?.slug as string);
    } else if (r.reason instanceof AuthError) throw r.reason;
    else if (!(r.reason instanceof ApiError && (r.reason.status === 404 || r.reason.status === 403)))
      throw r.reason;
  }
  if (matches.length === 1) return { org: matches[0] as string, project: slug, source: "argument" };
  if (matches.length > 1) {
    throw new ResolutionError(
      `Project '${slug}'`,
      "exists in several organizations",
      "Name one of them:",
      matches.map((o) => `${o}/${slug}`),
    );
  }
  throw new ResolutionError(
    `Project '${slug}'`,
    "was not found in any organization you can access",
    "Run `tracker project list <org>` to see the projects (slugs are case-sensitive).",
  );
}
