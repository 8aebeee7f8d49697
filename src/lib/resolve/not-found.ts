/** An organization or project the service did not find: which slug is unknown, and near matches. */
import type { TrackerContext } from "../../context.ts";
import { ApiError, ResolutionError } from "../errors.ts";
import { quoteWord } from "../shell-quote.ts";

/**
 * Runs `fn`; a 404 is turned into a ResolutionError that says which slug is unknown, with a
 * "did you mean" for existing slugs that differ only in case or by a typo (slugs are case-sensitive).
 */
export async function withSlugHint<T>(
  ctx: TrackerContext,
  ref: { org: string; project?: string },
  fn: () => Promise<T>,
): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) throw err;
    const better = await explainNotFound(ctx, ref).catch(() => undefined);
    throw better ?? err;
  }
}

/** "Did you mean a or b?" for near matches, with the case note when one differs only in case. */
function didYouMean(typed: string, matches: readonly string[], shown: (m: string) => string): string {
  const caseOnly = matches.some((m) => m.toLowerCase() === typed.toLowerCase());
  return `Did you mean ${matches.map(shown).join(" or ")}?${caseOnly ? " Slugs are case-sensitive." : ""}`;
}

/** Builds the ResolutionError for an org/project that the API did not find; undefined when both exist. */
export async function explainNotFound(
  ctx: TrackerContext,
  ref: { org: string; project?: string },
): Promise<ResolutionError | undefined> {
  const { listOrganizations } = await import("../api/organizations.ts");
  const { nearMatches } = await import("../near.ts");
  const orgs = (await listOrganizations(ctx)).map((o) => o.slug);
  if (!orgs.includes(ref.org)) {
    const near = nearMatches(ref.org, orgs);
    return new ResolutionError(
      `Organization '${ref.org}'`,
      "was not found",
      near.length > 0
        ? didYouMean(ref.org, near, (o) => `${o}${ref.project ? `/${ref.project}` : ""}`)
        : "Run `tracker org list` to see the organizations this token can access.",
    );
  }
  if (ref.project === undefined) return undefined;
  const { listProjects } = await import("../api/projects.ts");
  const projects = (await listProjects(ctx, ref.org)).map((p) => p.slug);
  if (projects.includes(ref.project)) return undefined;
  const near = nearMatches(ref.project, projects);
  return new ResolutionError(
    `Project '${ref.org}/${ref.project}'`,
    "was not found",
    near.length > 0
      ? didYouMean(ref.project, near, (p) => `${ref.org}/${p}`)
      : `Run \`tracker project list ${quoteWord(ref.org)}\` to see its projects.`,
  );
}
