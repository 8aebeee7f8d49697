/**
 * DSN → org/project (API.md §4.2, §4.3): hosted DSNs carry the org id, so one project lookup on the
 * org's region suffices; other DSNs are looked up by public key on each region (self-hosted: the
 * base URL only). Results are cached so a warm run makes no request.
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { listRegionUrls } from "../api/organizations.ts";
import { Project } from "../api/projects.ts";
import { cacheProjects } from "../db/project-cache.ts";
import { FAN_OUT_CONCURRENCY, settleLimit } from "../concurrency.ts";
import { type DsnProject, readDsnProject, writeDsnProject } from "../db/dsn-cache.ts";
import { ApiError, AuthError, ResolutionError } from "../errors.ts";
import { apiRequest } from "../http/client.ts";
import type { Dsn } from "./parse.ts";

const ProjectWithOrg = v.looseObject({
  ...Project.entries,
  organization: v.looseObject({ id: v.optional(v.string()), slug: v.string(), name: v.optional(v.string()) }),
});

function unresolvable(source: string, why: string): ResolutionError {
  return new ResolutionError(
    `DSN from ${source}`,
    "could not be matched to any accessible project",
    `${why} Check the DSN in ${source}, or name the target explicitly: <org>/<project>.`,
    ["run `tracker project list <org>` to see the projects this token can access"],
  );
}

async function byOrgId(ctx: TrackerContext, dsn: Dsn, source: string): Promise<DsnProject> {
  try {
    const res = await apiRequest(ctx, {
      path: `/api/0/projects/${dsn.orgId}/${dsn.projectId}/`,
      host: { org: dsn.orgId as string },
      schema: v.looseObject({ ...Project.entries }),
    });
    const p = res.data;
    const org = p.organization?.slug ?? (dsn.orgId as string);
    cacheProjects(ctx, org, [p]);
    return { org, project: p.slug, orgId: p.organization?.id ?? dsn.orgId ?? null, projectId: p.id };
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 403)) {
      throw unresolvable(
        source,
        `Project ${dsn.projectId} of organization ${dsn.orgId} does not exist or this token cannot access it.`,
      );
    }
    throw err;
  }
}

async function byPublicKey(ctx: TrackerContext, dsn: Dsn, source: string): Promise<DsnProject> {
  const regions = ctx.settings.selfHosted ? [ctx.settings.baseUrl] : await listRegionUrls(ctx);
  const results = await settleLimit(regions, FAN_OUT_CONCURRENCY, async (region) => {
    const res = await apiRequest(ctx, {
      path: "/api/0/projects/",
      host: { baseUrl: region },
      query: { query: `dsn:${dsn.publicKey}`, per_page: 1 },
      schema: v.array(ProjectWithOrg),
    });
    return res.data[0];
  });
  let firstError: unknown;
  for (const r of results) {
    if (r.status === "fulfilled" && r.value) {
      const p = r.value;
      cacheProjects(ctx, p.organization.slug, [p]);
      return { org: p.organization.slug, project: p.slug, orgId: p.organization.id ?? null, projectId: p.id };
    }
    if (r.status === "rejected") {
      if (r.reason instanceof AuthError) throw r.reason;
      firstError ??= r.reason;
    }
  }
  if (firstError && !(firstError instanceof ApiError && [403, 404].includes(firstError.status)))
    throw firstError;
  // Every region answered 404 to the search itself (no region found a project): a server that
  // does not offer it (self-hosted builds, compatible servers), not a DSN nobody uses.
  if (
    firstError instanceof ApiError &&
    firstError.status === 404 &&
    results.every((r) => r.status === "rejected")
  )
    throw unresolvable(
      source,
      "This server does not offer the project search by DSN key (GET /api/0/projects/?query=dsn:… answered 404): name the project instead (<org>/<project>, or TRACKER_ORG and TRACKER_PROJECT).",
    );
  throw unresolvable(source, "No project this token can access uses this DSN's key.");
}

/** Resolves a DSN to org/project slugs (cache first unless `fresh`); failures name the DSN's source. */
export async function resolveDsnProject(
  ctx: TrackerContext,
  dsn: Dsn,
  opts: { source: string; fresh?: boolean },
): Promise<DsnProject> {
  if (!opts.fresh) {
    const cached = readDsnProject(ctx, dsn.raw);
    if (cached) {
      ctx.log.debug(`Target: DSN ${dsn.raw} → ${cached.org}/${cached.project} (cached)`);
      return cached;
    }
  }
  const p = dsn.orgId ? await byOrgId(ctx, dsn, opts.source) : await byPublicKey(ctx, dsn, opts.source);
  ctx.log.debug(`Target: DSN ${dsn.raw} → ${p.org}/${p.project} (from the API)`);
  writeDsnProject(ctx, dsn.raw, p);
  return p;
}
