/**
 * `issue timeline` (API.md §22.4, §22.7): one time-ordered list of what happened to an issue and
 * its project: first and last seen, the project's releases and their deploys in that window (from
 * a day before the first event), its regressions, notes, status changes and assignments.
 */
import type { TrackerContext } from "../../context.ts";
import type { Activity } from "../api/activity.ts";
import { type ApiIssue, getIssue } from "../api/issues.ts";
import { type Deploy, listDeploys, listReleases, type Release } from "../api/releases.ts";
import { ApiError, ResolutionError } from "../errors.ts";
import { activitySummary, activityUser } from "../format/activity.ts";

/** How far before the first event releases and deploys are shown. */
export const TIMELINE_LEAD_MS = 24 * 3_600_000;
/** How many of the project's newest releases are looked at. */
export const TIMELINE_RELEASES_MAX = 25;

/** One entry of the timeline. */
export interface TimelineEntry {
  date: string;
  kind: string;
  summary: string;
  user: string | null;
}

/** The timeline document (`--json`). */
export interface Timeline {
  issue: string;
  project: string;
  window: { start: string | null; end: string | null };
  data: TimelineEntry[];
}

const within = (iso: string | null | undefined, start: number, end: number) => {
  const t = iso ? Date.parse(iso) : Number.NaN;
  return !Number.isNaN(t) && t >= start && t <= end;
};

async function deploysOrNone(ctx: TrackerContext, org: string, version: string): Promise<Deploy[]> {
  try {
    return await listDeploys(ctx, org, version);
  } catch (err) {
    if (err instanceof ResolutionError || (err instanceof ApiError && err.status === 404)) return [];
    throw err;
  }
}

/**
 * Reads the project's releases and their deploys in the issue's window and merges everything in
 * time order, in one more round trip: the releases, the issue's detail when the lookup did not
 * give it, and every deploy of the issue's first release go together; the other releases show the
 * deploy their listing carries (`lastDeploy`).
 */
export async function buildTimeline(
  ctx: TrackerContext,
  org: string,
  found: ApiIssue,
  activity: readonly Activity[],
): Promise<Timeline> {
  // An issue from a short-id lookup has no firstRelease: the detail comes with the releases.
  const knownFirst = found.activity === undefined ? undefined : found.firstRelease?.version;
  const [issue, releases, firstDeploys] = await Promise.all([
    found.activity === undefined ? getIssue(ctx, org, found.id) : found,
    listReleases(ctx, { org, projectSlug: found.project.slug, limit: TIMELINE_RELEASES_MAX, sort: "date" }),
    knownFirst ? deploysOrNone(ctx, org, knownFirst) : Promise.resolve(undefined),
  ]);
  const first = issue.firstSeen ? Date.parse(issue.firstSeen) : Number.NaN;
  const last = issue.lastSeen ? Date.parse(issue.lastSeen) : ctx.now();
  const start = Number.isNaN(first) ? Number.NEGATIVE_INFINITY : first - TIMELINE_LEAD_MS;
  const end = Number.isNaN(last)
    ? ctx.now()
    : Math.max(last, ...activity.map((a) => Date.parse(a.dateCreated) || 0));
  const firstRelease = issue.firstRelease?.version;
  const shown = releases.data.filter(
    (r: Release) => r.version === firstRelease || within(r.dateReleased ?? r.dateCreated, start, end),
  );
  // Found by a short-ID lookup (no cached detail), the first release is known only now: one more
  // request then, none when the issue was known.
  const firstVersion = issue.firstRelease?.version;
  const ofFirst = firstDeploys ?? (firstVersion ? await deploysOrNone(ctx, org, firstVersion) : undefined);
  const deploys = shown.map((r): Deploy[] =>
    r.version === firstVersion && ofFirst ? ofFirst : r.lastDeploy ? [r.lastDeploy] : [],
  );
  const data: TimelineEntry[] = [];
  const push = (
    date: string | null | undefined,
    kind: string,
    summary: string,
    user: string | null = null,
  ) => {
    if (date) data.push({ date, kind, summary, user });
  };
  push(issue.firstSeen, "first_seen", "first event");
  push(issue.lastSeen, "last_seen", "latest event");
  shown.forEach((r, i) => {
    const first = r.version === firstRelease ? " (the issue's first release)" : "";
    push(r.dateReleased ?? r.dateCreated, "release", `release ${r.version}${first}`);
    for (const d of deploys[i] ?? []) {
      if (within(d.dateFinished ?? d.dateStarted, start, end))
        push(d.dateFinished ?? d.dateStarted, "deploy", `deploy of ${r.version} to ${d.environment}`);
    }
  });
  for (const a of activity) {
    if (a.type === "first_seen") continue;
    push(a.dateCreated, a.type, activitySummary(a), activityUser(a));
  }
  data.sort((a, b) => Date.parse(a.date) - Date.parse(b.date));
  return {
    issue: issue.shortId,
    project: `${org}/${issue.project.slug}`,
    window: {
      start: Number.isFinite(start) ? new Date(start).toISOString() : null,
      end: new Date(end).toISOString(),
    },
    data,
  };
}
