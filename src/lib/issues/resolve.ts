/**
 * Turning an issue reference into an issue: numeric id (org-scoped, or the legacy unscoped route
 * when no organization is known), full short id (in the known org, else tried in every org),
 * `<alias>-<suffix>` from the last multi-project listing, or a bare suffix in the current project.
 */
import type { TrackerContext } from "../../context.ts";
import { type ApiIssue, getIssue, getIssueUnscoped, lookupShortId, orgFromPermalink } from "../api/issues.ts";
import { listOrganizations } from "../api/organizations.ts";
import { FAN_OUT_CONCURRENCY, settleLimit } from "../concurrency.ts";
import { ApiError, AuthError, ContextError, ResolutionError } from "../errors.ts";
import { lookupAlias } from "../db/aliases.ts";
import { resolveOrg, resolveOrgProject } from "../resolve/target.ts";
import { parseIssueRef } from "./reference.ts";

/** A resolved issue and the organization it belongs to. */
export interface ResolvedIssue {
  org: string;
  issue: ApiIssue;
}

/** Options of resolution. */
export interface IssueResolveOptions {
  command: string;
  fresh?: boolean;
}

function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 404 || err.status === 403);
}

async function optionalOrg(ctx: TrackerContext, opts: IssueResolveOptions): Promise<string | undefined> {
  try {
    return (await resolveOrg(ctx, undefined, opts)).org;
  } catch (err) {
    if (err instanceof ContextError) return undefined;
    throw err;
  }
}

async function byShortId(
  ctx: TrackerContext,
  org: string,
  shortId: string,
  tried: string,
): Promise<ResolvedIssue> {
  try {
    const r = await lookupShortId(ctx, org, shortId);
    return { org: r.organizationSlug || org, issue: r.group };
  } catch (err) {
    if (isNotFound(err)) {
      throw new ResolutionError(
        `Issue '${shortId.toUpperCase()}'`,
        `was not found in organization '${org}'`,
        `Tried: ${tried}. Run \`tracker issue list ${org}/\` to see its issues.`,
      );
    }
    throw err;
  }
}

async function shortIdAnywhere(
  ctx: TrackerContext,
  shortId: string,
  opts: IssueResolveOptions,
): Promise<ResolvedIssue> {
  const org = await optionalOrg(ctx, opts);
  if (org) return byShortId(ctx, org, shortId, `short ID ${shortId.toUpperCase()} in ${org}`);
  const orgs = await listOrganizations(ctx);
  const results = await settleLimit(orgs, FAN_OUT_CONCURRENCY, (o) => lookupShortId(ctx, o.slug, shortId));
  for (const r of results) {
    if (r.status === "fulfilled") return { org: r.value.organizationSlug, issue: r.value.group };
    if (r.reason instanceof AuthError || !isNotFound(r.reason)) throw r.reason;
  }
  throw new ResolutionError(
    `Issue '${shortId.toUpperCase()}'`,
    "was not found in any organization you can access",
    `Tried: short ID ${shortId.toUpperCase()} in ${orgs.map((o) => o.slug).join(", ") || "no organizations"}.`,
  );
}

/** Resolves an `<issue>` argument to the issue (validated) and its organization. */
export async function resolveIssue(
  ctx: TrackerContext,
  raw: string,
  opts: IssueResolveOptions,
): Promise<ResolvedIssue> {
  const ref = parseIssueRef(raw);
  if (ref.kind === "numeric") {
    const org = ref.org ?? (await optionalOrg(ctx, opts));
    try {
      if (org) return { org, issue: await getIssue(ctx, org, ref.id) };
      const issue = await getIssueUnscoped(ctx, ref.id);
      const found = orgFromPermalink(issue.permalink);
      if (!found) {
        throw new ResolutionError(
          `Issue ${ref.id}`,
          "has no organization in its permalink",
          `Pass it as <org>/${ref.id}.`,
        );
      }
      return { org: found, issue };
    } catch (err) {
      if (isNotFound(err)) {
        throw new ResolutionError(
          `Issue ${ref.id}`,
          org ? `was not found in organization '${org}'` : "was not found",
          `Tried: numeric ID ${ref.id}${org ? ` in ${org}` : " (no organization known)"}. Check the ID, or pass <org>/${ref.id}.`,
        );
      }
      throw err;
    }
  }
  if (ref.kind === "dashed") {
    const full = `${ref.prefix}-${ref.suffix}`;
    if (ref.org) return byShortId(ctx, ref.org, full, `short ID ${full.toUpperCase()} in ${ref.org}`);
    const alias = lookupAlias(ctx, ref.prefix);
    if (alias) {
      const shortId = `${alias.project.toUpperCase()}-${ref.suffix}`;
      return byShortId(
        ctx,
        alias.org,
        shortId,
        `alias '${ref.prefix}' → ${alias.org}/${alias.project}, short ID ${shortId}`,
      );
    }
    return shortIdAnywhere(ctx, full, opts);
  }
  let target: { org: string; project: string };
  try {
    target = await resolveOrgProject(ctx, undefined, opts);
  } catch (err) {
    if (err instanceof ContextError) {
      throw new ResolutionError(
        `Issue '${ref.suffix}'`,
        "is only a suffix and no current project is known",
        "Use the full short ID (e.g. WEB-4Y) or a numeric ID, or set the project (TRACKER_PROJECT, `tracker defaults set <org>/<project>`, or a DSN).",
      );
    }
    throw err;
  }
  const shortId = `${target.project.toUpperCase()}-${ref.suffix}`;
  return byShortId(
    ctx,
    target.org,
    shortId,
    `suffix ${ref.suffix} in ${target.org}/${target.project} → ${shortId}`,
  );
}
