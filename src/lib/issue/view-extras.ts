/**
 * What `issue view` adds around an issue during an incident (API.md §22.4, §22.6, §22.7): the last
 * notes (from the detail's `activity`), the linked tickets, the suspect commits of the latest
 * event, and the release the issue first appeared in with that release's deploys. The requests go
 * in parallel: with the issue cached, the detail, latest event and links come in one round trip
 * and the committers and deploys in a second.
 */
import type { TrackerContext } from "../../context.ts";
import type { Activity } from "../api/activity.ts";
import { type Committer, listCommitters } from "../api/committers.ts";
import type { ApiEvent } from "../api/events.ts";
import { type IssueIntegration, listIssueIntegrations } from "../api/issue-links.ts";
import { type ApiIssue, getIssue } from "../api/issues.ts";
import { listDeploys } from "../api/releases.ts";
import { ApiError, ResolutionError } from "../errors.ts";
import { type ActivityRow, toActivityRows } from "../format/activity.ts";
import { type LinkedTicket, linkedTickets } from "./links.ts";
import { VIEW_NOTES_MAX } from "./view-limits.ts";

/** One suspect commit, flattened for the view. */
export interface SuspectCommit {
  author: string;
  commit: string;
  message: string;
  repository: string | null;
  date: string | null;
  pullRequest: { title: string; url: string } | null;
}

/** The release the issue first appeared in, its deploys, and how long after a deploy the issue started. */
export interface FirstReleaseView {
  version: string;
  deploys: { environment: string; dateFinished: string | null }[];
  /** The last deploy of that release finished before the first event, and the gap in ms. */
  firstEventAfter: { environment: string; ms: number } | null;
}

/** The incident fields of `issue view --json`. */
export interface IssueViewExtras {
  notes: ActivityRow[];
  links: LinkedTicket[];
  suspectCommits: SuspectCommit[];
  firstRelease: FirstReleaseView | null;
}

/** A read the service may not offer (feature, plan or integration missing): empty instead of failing the view. */
async function optional<T>(ctx: TrackerContext, what: string, empty: T, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    // listDeploys turns its 404 into a ResolutionError ("release not found"): also just "none".
    const absent =
      err instanceof ResolutionError || (err instanceof ApiError && [400, 403, 404].includes(err.status));
    if (!absent) throw err;
    ctx.log.debug(`No ${what}: ${(err as Error).message}`);
    return empty;
  }
}

/** The issue's linked tickets through its organization's integrations (empty when none can be read). */
export function readLinks(ctx: TrackerContext, org: string, id: string): Promise<IssueIntegration[]> {
  return optional(ctx, "issue links", [] as IssueIntegration[], () => listIssueIntegrations(ctx, org, id));
}

function toSuspects(committers: readonly Committer[]): SuspectCommit[] {
  return committers.flatMap((c) =>
    c.commits.map((k) => ({
      author: c.author?.name || c.author?.email || c.author?.username || "unknown",
      commit: k.id,
      message: (k.message ?? "").split("\n")[0] ?? "",
      repository: k.repository?.name ?? null,
      date: k.dateCreated ?? null,
      pullRequest: k.pullRequest?.externalUrl
        ? { title: k.pullRequest.title ?? "", url: k.pullRequest.externalUrl }
        : null,
    })),
  );
}

/** The last deploy finished before the first event, and how long before it. */
function deployBefore(deploys: FirstReleaseView["deploys"], firstSeen: string | null | undefined) {
  const first = firstSeen ? Date.parse(firstSeen) : Number.NaN;
  if (Number.isNaN(first)) return null;
  let best: { environment: string; ms: number } | null = null;
  for (const d of deploys) {
    const at = d.dateFinished ? Date.parse(d.dateFinished) : Number.NaN;
    if (Number.isNaN(at) || at > first) continue;
    if (!best || first - at < best.ms) best = { environment: d.environment, ms: first - at };
  }
  return best;
}

/** The last `n` notes of an activity list (it is newest first). */
export function lastNotes(activity: readonly Activity[] | undefined, n = VIEW_NOTES_MAX): ActivityRow[] {
  return toActivityRows((activity ?? []).filter((a) => a.type === "note").slice(0, n));
}

/**
 * Reads the rest after the issue, its latest event and its links are known: the detail (only when
 * the issue came from a short-id lookup, which carries no activity or releases) and the suspect
 * commits together, then the first release's deploys.
 */
export async function readViewExtras(
  ctx: TrackerContext,
  org: string,
  issue: ApiIssue,
  event: ApiEvent | null,
  integrations: readonly IssueIntegration[],
): Promise<{ issue: ApiIssue; extras: IssueViewExtras }> {
  const version = issue.activity === undefined ? undefined : issue.firstRelease?.version;
  const deploysOf = (v: string) =>
    optional(ctx, "deploys", [] as Awaited<ReturnType<typeof listDeploys>>, () => listDeploys(ctx, org, v));
  const [detail, committers, early] = await Promise.all([
    issue.activity === undefined
      ? optional(ctx, "issue detail", issue, () => getIssue(ctx, org, issue.id))
      : issue,
    event
      ? optional(ctx, "suspect commits", [] as Committer[], () =>
          listCommitters(ctx, org, issue.project.slug, event.eventID),
        )
      : [],
    version ? deploysOf(version) : undefined,
  ]);
  const release = detail.firstRelease?.version;
  const deploys = release ? (early ?? (await deploysOf(release))) : [];
  const rows = deploys.map((d) => ({ environment: d.environment, dateFinished: d.dateFinished ?? null }));
  return {
    issue: detail,
    extras: {
      notes: lastNotes(detail.activity),
      links: linkedTickets(integrations),
      suspectCommits: toSuspects(committers),
      firstRelease: release
        ? { version: release, deploys: rows, firstEventAfter: deployBefore(rows, detail.firstSeen) }
        : null,
    },
  };
}
