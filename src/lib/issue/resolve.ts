/**
 * Turning an issue reference into an issue: numeric id (org-scoped, or the legacy unscoped route
 * when no organization is known), full short id (in the known org, else tried in every org),
 * `<alias>-<suffix>` from the last multi-project listing, or a bare suffix in the current project.
 */
import type { TrackerContext } from "../../context.ts";
import { type ApiIssue, getIssue, getIssueUnscoped, lookupShortId, orgFromPermalink } from "../api/issues.ts";
import { FAN_OUT_CONCURRENCY, firstLimit, settleLimit } from "../concurrency.ts";
import { ApiError, AuthError, ContextError, ResolutionError } from "../errors.ts";
import { activeAliasTarget, lookupAlias } from "../db/aliases.ts";
import { readIssueRef, writeIssueRefs } from "../db/issue-refs.ts";
import { contextOrgs, resolveOrgProject } from "../resolve/target.ts";
import { parseIssueRef } from "./reference.ts";
import { searchBeyond } from "./org-search.ts";
import { useServiceOfUrl } from "../auth/url-service.ts";
import { writeTip } from "../output.ts";
import { listedOrgNote } from "./known-refs.ts";
import { quoteWord } from "../shell-quote.ts";

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

/**
 * The organizations to look in for a full short ID or numeric ID: the one the context names, or
 * every organization of the detected DSNs (a monorepo may span several); none when nothing is known.
 */
async function lookIn(ctx: TrackerContext, opts: IssueResolveOptions): Promise<string[]> {
  try {
    const { orgs, source } = await contextOrgs(ctx, opts);
    if (orgs.length === 1) ctx.log.info(`Using organization ${orgs[0]} (from ${source})`);
    else if (orgs.length > 1)
      ctx.log.debug(`Target: looking in the detected organizations ${orgs.join(", ")}`);
    return orgs;
  } catch (err) {
    if (err instanceof ContextError) return [];
    throw err;
  }
}

/**
 * The issue a numeric ID names in one of several organizations. IDs are unique across them, so
 * the search stops at the first organization that has it; without one, any failure other than
 * "not found" is thrown.
 */
async function numericIn(
  ctx: TrackerContext,
  orgs: readonly string[],
  id: string,
): Promise<ResolvedIssue | undefined> {
  const found = await firstLimit(orgs, FAN_OUT_CONCURRENCY, (o) => getIssue(ctx, o, id));
  if (found.hit) return { org: orgs[found.hit.index] as string, issue: found.hit.value };
  const fatal = found.errors.find((e) => e instanceof AuthError || !isNotFound(e));
  if (fatal) throw fatal;
  return undefined;
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
        `Tried: ${tried}. Run \`tracker issue list ${quoteWord(`${org}/`)}\` to see its issues.`,
      );
    }
    throw err;
  }
}

/** Looks a short ID up in each of `orgs` (in parallel, bounded): every organization that has it. */
async function shortIdIn(
  ctx: TrackerContext,
  orgs: readonly string[],
  shortId: string,
): Promise<ResolvedIssue[]> {
  const results = await settleLimit(orgs, FAN_OUT_CONCURRENCY, (o) => lookupShortId(ctx, o, shortId));
  const found: ResolvedIssue[] = [];
  for (const [i, r] of results.entries()) {
    if (r.status === "fulfilled")
      found.push({ org: r.value.organizationSlug || (orgs[i] as string), issue: r.value.group });
    else if (r.reason instanceof AuthError || !isNotFound(r.reason)) throw r.reason;
  }
  return found;
}

/**
 * A full short ID without an organization: looked up in the organization the context names, else
 * in the detected organizations, else (or when they do not have it) in the first MAX_ORGS_SEARCHED
 * other organizations the service lists. The same short ID in two organizations is never resolved
 * to whichever answered first.
 */
async function shortIdAnywhere(
  ctx: TrackerContext,
  shortId: string,
  opts: IssueResolveOptions,
): Promise<ResolvedIssue> {
  const upper = shortId.toUpperCase();
  const context = await lookIn(ctx, opts);
  if (context.length === 1) {
    const org = context[0] as string;
    return byShortId(ctx, org, shortId, `short ID ${upper} in ${org}`);
  }
  // The short ID a listing printed bare (issue list … | cut -f1 | …) is that listing's issue.
  const listed = context.length === 0 ? readIssueRef(ctx, `*/${upper}`) : undefined;
  if (listed) {
    const issue = await getIssue(ctx, listed.org, listed.id).catch(() => undefined);
    if (issue && issue.shortId.toUpperCase() === upper) {
      // The same short ID can exist in other organizations too: say which one this is, and why.
      writeTip(ctx, listedOrgNote(upper, listed.org));
      return { org: listed.org, issue };
    }
  }
  let found = context.length > 1 ? await shortIdIn(ctx, context, shortId) : [];
  let tried = [...context];
  let cappedHint: string | undefined;
  if (found.length === 0) {
    const beyond = await searchBeyond(ctx, context, upper, opts);
    found = await shortIdIn(ctx, beyond.orgs, shortId);
    tried = [...context, ...beyond.orgs];
    cappedHint = beyond.cappedHint;
  }
  if (found.length > 1) {
    throw new ResolutionError(
      `Issue '${upper}'`,
      `exists in ${found.length} organizations`,
      `Name it with its organization, e.g. \`${opts.command} ${found[0]?.org}/${upper}\`.`,
      found.map((f) => `${f.org}/${upper}`),
    );
  }
  if (found[0]) {
    writeIssueRefs(ctx, [`*/${upper}`], found[0].org, found[0].issue.id);
    return found[0];
  }
  if (cappedHint) {
    throw new ResolutionError(`Issue '${upper}'`, "was not found in the organizations searched", cappedHint);
  }
  throw new ResolutionError(
    `Issue '${upper}'`,
    "was not found in any organization you can access",
    `Tried: short ID ${upper} in ${tried.join(", ") || "no organizations"}.`,
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
  const command = detected ? "tracker issue list" : `tracker issue list ${quoteWord(target)}`;
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
  useServiceOfUrl(ctx, raw);
  const r = await resolveUncached(ctx, raw, opts);
  writeIssueRefs(ctx, [`#${r.issue.id}`, `${r.org}/${r.issue.shortId.toUpperCase()}`], r.org, r.issue.id);
  return r;
}

async function resolveUncached(
  ctx: TrackerContext,
  raw: string,
  opts: IssueResolveOptions,
): Promise<ResolvedIssue> {
  const ref = parseIssueRef(raw);
  if (ref.kind === "numeric") {
    const orgs = ref.org ? [ref.org] : await lookIn(ctx, opts);
    const org = orgs.length === 1 ? orgs[0] : undefined;
    if (orgs.length > 1) {
      // Several detected organizations: the one that has it; else the service's unscoped route.
      const hit = await numericIn(ctx, orgs, ref.id);
      if (hit) return hit;
    }
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

export { forgetIssueRef, knownIssueRef } from "./known-refs.ts";
