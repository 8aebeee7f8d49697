/**
 * "My plate" (`tracker status`): per organization, three independent issue searches (API.md §19.4)
 * sent together: issues assigned to the caller or their teams, regressed issues, and issues new in
 * the caller's projects since a given time.
 */
import type { TrackerContext } from "../../context.ts";
import { type Issue, searchIssuesPage, toIssue } from "../api/issues.ts";
import { FAN_OUT_CONCURRENCY, settleLimit } from "../concurrency.ts";
import { AuthError, CliError } from "../errors.ts";
import { DEFAULT_PERIOD } from "../flags.ts";
import { withSlugHint } from "../resolve/not-found.ts";

/** The sections of the status screen, in the order they are shown. */
export const PLATE_SECTIONS = ["assigned", "regressed", "new"] as const;
/** One section's name. */
export type PlateSection = (typeof PLATE_SECTIONS)[number];

/** The activity window of every search; a "since" older than it is clamped to it. */
export const PLATE_PERIOD = DEFAULT_PERIOD;
const PLATE_PERIOD_MS = 90 * 86_400_000;
/** How far back the first run looks for new issues. */
export const FIRST_RUN_WINDOW_MS = 24 * 3_600_000;

/** The fixed searches; the "new" one is built per organization by `newIssuesQuery`. */
export const PLATE_QUERIES = {
  assigned: "is:unresolved assigned:[me, my_teams]",
  regressed: "is:unresolved is:regressed",
} as const;

/** A time as the search syntax takes it: UTC, whole seconds, no zone suffix (`2026-01-15T12:00:00`). */
export function searchTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19);
}

/** The search for issues first seen at or after `sinceMs`. */
export function newIssuesQuery(sinceMs: number): string {
  return `is:unresolved firstSeen:>=${searchTime(sinceMs)}`;
}

/** The start of the "new" window: the last run, else FIRST_RUN_WINDOW_MS ago, never before the period. */
export function sinceFor(lastRunMs: number | undefined, nowMs: number): number {
  const since = lastRunMs ?? nowMs - FIRST_RUN_WINDOW_MS;
  return Math.max(since, nowMs - PLATE_PERIOD_MS);
}

/** One section: its first issues and, when the service counted them (`X-Hits`), how many match. */
export interface PlateList {
  issues: Issue[];
  total?: number;
}

/** One organization's plate. */
export interface OrgPlate {
  org: string;
  /** ISO start of the "new" window. */
  since: string;
  assigned: PlateList;
  regressed: PlateList;
  new: PlateList;
}

/** An organization whose searches failed. */
export interface PlateFailure {
  org: string;
  message: string;
}

interface SearchSpec {
  query: string;
  /** `-1`: every accessible project; none: the caller's projects. */
  projects: string[];
  sort: string;
}

function specsFor(sinceMs: number): Record<PlateSection, SearchSpec> {
  return {
    assigned: { query: PLATE_QUERIES.assigned, projects: ["-1"], sort: "date" },
    regressed: { query: PLATE_QUERIES.regressed, projects: [], sort: "date" },
    new: { query: newIssuesQuery(sinceMs), projects: [], sort: "new" },
  };
}

async function searchOne(
  ctx: TrackerContext,
  org: string,
  spec: SearchSpec,
  limit: number,
): Promise<PlateList> {
  const page = await searchIssuesPage(ctx, {
    org,
    projects: spec.projects,
    query: spec.query,
    sort: spec.sort,
    period: PLATE_PERIOD,
    limit,
  });
  const rows = typeof page.rows === "function" ? page.rows() : page.rows;
  const issues = rows.slice(0, limit).map(toIssue);
  return page.hits === undefined ? { issues } : { issues, total: page.hits };
}

async function plateOf(ctx: TrackerContext, org: string, sinceMs: number, limit: number): Promise<OrgPlate> {
  const specs = specsFor(sinceMs);
  const [assigned, regressed, fresh] = await Promise.all(
    PLATE_SECTIONS.map((s) => searchOne(ctx, org, specs[s], limit)),
  );
  return {
    org,
    since: new Date(sinceMs).toISOString(),
    assigned: assigned as PlateList,
    regressed: regressed as PlateList,
    new: fresh as PlateList,
  };
}

/**
 * The plates of `orgs`: every organization's three searches at once, up to FAN_OUT_CONCURRENCY
 * organizations together (so up to 24 requests in flight, one round trip for that many). A failed
 * organization is reported, not thrown, unless it is an authentication failure or every one failed.
 */
export async function fetchPlates(
  ctx: TrackerContext,
  orgs: readonly string[],
  opts: { limit: number; sinceOf: (org: string) => number },
): Promise<{ plates: OrgPlate[]; errors: PlateFailure[] }> {
  const settled = await settleLimit(orgs, FAN_OUT_CONCURRENCY, (org) =>
    // An organization the service does not know is named with its near matches (exit 23).
    withSlugHint(ctx, { org }, () => plateOf(ctx, org, opts.sinceOf(org), opts.limit)),
  );
  const plates: OrgPlate[] = [];
  const errors: PlateFailure[] = [];
  let firstError: unknown;
  settled.forEach((r, i) => {
    if (r.status === "fulfilled") {
      plates.push(r.value);
      return;
    }
    if (r.reason instanceof AuthError) throw r.reason;
    firstError ??= r.reason;
    const message = r.reason instanceof CliError ? r.reason.message : String(r.reason);
    errors.push({ org: orgs[i] as string, message });
  });
  if (plates.length === 0 && firstError !== undefined) throw firstError;
  return { plates, errors };
}
