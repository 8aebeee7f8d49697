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
import { activeAliasTarget, lookupAlias } from "../db/aliases.ts";
import { dropIssueRefs, readIssueRef, writeIssueRefs } from "../db/issue-refs.ts";
import { resolveOrg, resolveOrgProject } from "../resolve/target.ts";
import { type IssueRef, parseIssueRef } from "./reference.ts";

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
  const orgs = await listOrganizations(ctx, { fresh: opts.fresh });
  const results = await settleLimit(orgs, FAN_OUT_CONCURRENCY, (o) => lookupShortId(ctx, o.slug, shortId));
  const found: ResolvedIssue[] = [];
  for (const r of results) {
    if (r.status === "fulfilled") found.push({ org: r.value.organizationSlug, issue: r.value.group });
    else if (r.reason instanceof AuthError || !isNotFound(r.reason)) throw r.reason;
  }
  // The same short ID in two organizations is never resolved to whichever answered first.
  if (found.length > 1) {
    const upper = shortId.toUpperCase();
    throw new ResolutionError(
      `Issue '${upper}'`,
      `exists in ${found.length} organizations`,
      `Name it with its organization, e.g. \`${opts.command} ${found[0]?.org}/${upper}\`.`,
      found.map((f) => `${f.org}/${upper}`),
    );
  }
  if (found[0]) {
    writeIssueRefs(ctx, [`*/${shortId.toUpperCase()}`], found[0].org, found[0].issue.id);
    return found[0];
  }
  throw new ResolutionError(
    `Issue '${shortId.toUpperCase()}'`,
    "was not found in any organization you can access",
    `Tried: short ID ${shortId.toUpperCase()} in ${orgs.map((o) => o.slug).join(", ") || "no organizations"}.`,
  );
}

/**
 * The error for `<prefix>-<suffix>` when the prefix, typed in lower case as aliases are shown, is
 * not an alias of the current listing's target; undefined when no aliased listing was made.
 */
function unknownAlias(ctx: TrackerContext, prefix: string): ResolutionError | undefined {
  if (prefix !== prefix.toLowerCase()) return undefined;
  const target = activeAliasTarget(ctx);
  if (target === undefined) return undefined;
  const detected = target.startsWith("detected:");
  const where = detected
    ? `the detected projects (${target.slice("detected:".length).split(",").join(", ")})`
    : target;
  const command = detected ? "tracker issue list" : `tracker issue list ${target}`;
  return new ResolutionError(
    `Alias '${prefix}'`,
    `is not known for ${where}`,
    `Run \`${command}\` to see its aliases, or use the issue's full short ID (e.g. WEB-4Y).`,
  );
}

/** Resolves an `<issue>` argument to the issue (validated) and its organization. */
export async function resolveIssue(
  ctx: TrackerContext,
  raw: string,
  opts: IssueResolveOptions,
): Promise<ResolvedIssue> {
  const r = await resolveUncached(ctx, raw, opts);
  writeIssueRefs(ctx, [`#${r.issue.id}`, `${r.org}/${r.issue.shortId.toUpperCase()}`], r.org, r.issue.id);
  return r;
}

/**
 * Where a reference points without asking the service: an explicit `<org>/<numeric id>` (or URL),
 * or what the same reference resolved to before (issue_refs). Undefined when unknown.
 */
export function knownIssueRef(
  ctx: TrackerContext,
  raw: string,
): { org: string; id: string; key?: string } | undefined {
  let ref: IssueRef;
  try {
    ref = parseIssueRef(raw);
  } catch {
    return undefined;
  }
  if (ref.kind === "numeric") {
    if (ref.org) return { org: ref.org, id: ref.id };
    const key = `#${ref.id}`;
    const hit = readIssueRef(ctx, key);
    return hit ? { ...hit, key } : undefined;
  }
  if (ref.kind !== "dashed") return undefined;
  const full = `${ref.prefix}-${ref.suffix}`.toUpperCase();
  let key = ref.org ? `${ref.org}/${full}` : `*/${full}`;
  if (!ref.org) {
    const alias = lookupAlias(ctx, ref.prefix);
    if (alias) key = `${alias.org}/${alias.project.toUpperCase()}-${ref.suffix.toUpperCase()}`;
  }
  const hit = readIssueRef(ctx, key);
  return hit ? { ...hit, key } : undefined;
}

/** Forgets a cached reference the service no longer confirms. */
export function forgetIssueRef(ctx: TrackerContext, key: string | undefined): void {
  if (key) dropIssueRefs(ctx, [key]);
}

async function resolveUncached(
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
    try {
      return await shortIdAnywhere(ctx, full, opts);
    } catch (err) {
      // A lower-case prefix after an aliased listing was meant as an alias: say so, not "no such short ID".
      const asAlias = err instanceof ResolutionError ? unknownAlias(ctx, ref.prefix) : undefined;
      throw asAlias ?? err;
    }
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
