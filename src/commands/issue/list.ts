import type { TrackerContext } from "../../context.ts";
import { type Issue, toIssue } from "../../lib/api/issues.ts";
import { getProjectId } from "../../lib/resolve/project-id.ts";
import { cacheProjects } from "../../lib/db/project-cache.ts";
import { FAN_OUT_CONCURRENCY } from "../../lib/concurrency.ts";
import { continuesPastEnd, resolveCursor, saveCursor } from "../../lib/db/cursors.ts";
import { AuthError, CliError, ValidationError } from "../../lib/errors.ts";
import { ISSUE_LIST_VIEW, type IssueListOptions } from "../../lib/format/issue-table.ts";
import { issueComparator } from "../../lib/issue/order.ts";
import { listedRefs } from "../../lib/issue/refs-list.ts";
import { splitFetch } from "../../lib/issue/quota.ts";
import { writeListTip, writeTip } from "../../lib/output.ts";
import { type ListRun, writeListView } from "../../lib/view/render.ts";
import { saveAliases, useTargetAliases } from "../../lib/db/aliases.ts";
import { detectedTarget, type ListTarget, resolveListTargets } from "../../lib/resolve/list-targets.ts";
import type { ResolvedProject } from "../../lib/resolve/target.ts";
import type { IssueListFlags } from "./index.ts";
import { fetchIssues, type IssueListRun, keyFor, prepareIssueList } from "./list-fetch.ts";
import { writeListedRefs } from "../../lib/db/issue-refs.ts";
import { issueViewTip } from "../../lib/issue/view-tip.ts";

/** An issue row of the listing: its organization, and its project's alias in multi-project and org-wide modes. */
type Row = Issue & { org: string; alias?: string };

/** A failed project of a multi-project listing. */
interface ProjectFailure {
  project: string;
  message: string;
}

interface Listing {
  rows: Row[];
  /** The projects listed (multi-project mode): their slugs tell which short IDs two organizations share. */
  projects?: readonly ResolvedProject[];
  hasMore: boolean;
  nextCursor?: string;
  /** The cursor continuing at row k, and where `-c last` keeps it (single-page listings). */
  resumeAt?: (k: number) => string | undefined;
  save?: (cursor: string | undefined) => void;
  errors: ProjectFailure[];
  /** How many issues match in all, when the service said (`X-Hits`). */
  total?: number;
  header: string;
  /** Whether `-c last` can continue this listing. */
  resumable: boolean;
  aliased: boolean;
  /** `-c last` after the last page: nothing was asked. */
  pastEnd?: boolean;
}

/** The empty listing `-c last` gets after the last page (no request). */
function pastEnd(header: string, aliased: boolean): Listing {
  return { rows: [], hasMore: false, errors: [], header, resumable: true, aliased, pastEnd: true };
}

const SORT_TEXT: Record<string, string> = {
  date: "last seen",
  new: "first seen",
  freq: "events",
  user: "users",
};

/** Target sources that name a project by its slug (a DSN names it by id: a rename changes nothing there). */
const NAMED_BY_SLUG = new Set(["argument", "TRACKER_ORG/TRACKER_PROJECT", "TRACKER_PROJECT", "defaults"]);

async function listOne(ctx: TrackerContext, p: ResolvedProject, flags: IssueListRun): Promise<Listing> {
  const label = `${p.org}/${p.project}`;
  const key = keyFor(label, flags);
  if (continuesPastEnd(ctx, key, flags.cursor)) return pastEnd(`Issues in ${label}`, false);
  const start = resolveCursor(ctx, key, flags.cursor);
  let id = await getProjectId(ctx, p.org, p.project, flags.fresh);
  let page = await fetchIssues(ctx, p.org, [id], flags, flags.limit, start);
  // Issues of a project by another slug: the cached slug → id mapping is stale (the project was
  // renamed, or the slug now names another one). Resolve the slug afresh and ask again, once.
  const other = page.data.find((i) => i.project.slug !== p.project)?.project;
  if (!flags.fresh && NAMED_BY_SLUG.has(p.source) && !/^\d+$/.test(p.project) && other) {
    ctx.log.debug(`Cached id ${id} of ${label} now lists ${other.slug}'s issues; resolving ${label} again`);
    // The id's current slug replaces the stale one in the cache.
    if (other.id)
      cacheProjects(ctx, p.org, [{ slug: other.slug, id: other.id, name: other.name ?? other.slug }]);
    const fresh = await getProjectId(ctx, p.org, p.project, true);
    if (fresh !== id) {
      id = fresh;
      page = await fetchIssues(ctx, p.org, [id], flags, flags.limit, start);
    }
  }
  saveCursor(ctx, key, page.nextCursor);
  return {
    rows: page.data.map((i) => ({ ...toIssue(i), org: p.org })),
    hasMore: page.nextCursor !== undefined,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    resumeAt: page.resumeAt,
    save: (c) => saveCursor(ctx, key, c),
    ...(page.total === undefined ? {} : { total: page.total }),
    errors: [],
    header: `Issues in ${label}`,
    resumable: true,
    aliased: false,
  };
}

async function listOrg(ctx: TrackerContext, org: string, flags: IssueListRun): Promise<Listing> {
  const key = keyFor(`${org}/`, flags);
  if (continuesPastEnd(ctx, key, flags.cursor)) return pastEnd(`Issues in all projects of ${org}`, true);
  const start = resolveCursor(ctx, key, flags.cursor);
  // project=-1: every project the token can access, not only the caller's team projects.
  const page = await fetchIssues(ctx, org, ["-1"], flags, flags.limit, start);
  saveCursor(ctx, key, page.nextCursor);
  const issues = page.data.map(toIssue);
  // Aliases belong to the organization, not to this page: one shown before keeps its meaning.
  const slugs = [...new Set(issues.map((i) => i.project.slug))];
  const aliases = new Map(
    useTargetAliases(
      ctx,
      `${org}/`,
      slugs.map((project) => ({ org, project })),
    ).map((e) => [e.project.toLowerCase(), e.alias]),
  );
  return {
    rows: issues.map((i) => ({
      ...i,
      org,
      alias: aliases.get(i.project.slug.toLowerCase()) ?? i.project.slug,
    })),
    hasMore: page.nextCursor !== undefined,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    resumeAt: page.resumeAt,
    save: (c) => saveCursor(ctx, key, c),
    ...(page.total === undefined ? {} : { total: page.total }),
    errors: [],
    header: `Issues in all projects of ${org}`,
    resumable: true,
    aliased: true,
  };
}

async function listMulti(
  ctx: TrackerContext,
  projects: ResolvedProject[],
  flags: IssueListRun,
): Promise<Listing> {
  if (flags.cursor !== undefined) {
    throw new ValidationError(
      "--cursor continues one project or one organization (<org>/); with several detected projects, name one: tracker issue list <org>/<project> -c last.",
      "cursor",
    );
  }
  const ids = new Map<number, string>();
  const compare = issueComparator(flags.sort);
  const slices = await splitFetch<Issue>(
    projects.length,
    flags.limit,
    async (i, count, cursor) => {
      const p = projects[i] as ResolvedProject;
      let id = ids.get(i);
      if (id === undefined) {
        id = await getProjectId(ctx, p.org, p.project, flags.fresh);
        ids.set(i, id);
      }
      const page = await fetchIssues(ctx, p.org, [id], flags, count, cursor);
      return { rows: page.data.map(toIssue), nextCursor: page.nextCursor };
    },
    compare,
    FAN_OUT_CONCURRENCY,
  );
  const errors: ProjectFailure[] = [];
  const rows: Row[] = [];
  slices.forEach((s, i) => {
    const p = projects[i] as ResolvedProject;
    const alias = p.alias ?? p.project;
    if (s.error !== undefined) {
      if (s.error instanceof AuthError) throw s.error;
      const message = s.error instanceof CliError ? s.error.message : String(s.error);
      errors.push({ project: `${p.org}/${p.project}`, message });
    }
    for (const r of s.rows) rows.push({ ...r, org: p.org, alias });
  });
  if (errors.length === projects.length) throw slices.find((s) => s.error !== undefined)?.error;
  rows.sort(compare);
  // The aliases shown are the current ones (detected projects got theirs, kept per set, while the
  // target was resolved).
  saveAliases(
    ctx,
    projects.map((p) => ({ alias: (p.alias ?? p.project).toLowerCase(), org: p.org, project: p.project })),
    detectedTarget(projects),
  );
  return {
    rows,
    projects,
    hasMore: slices.some((s) => s.hasMore),
    errors,
    header: `Issues in ${projects.map((p) => `${p.org}/${p.project} (${p.alias ?? p.project})`).join(", ")}`,
    resumable: false,
    aliased: true,
  };
}

/** `tracker issue list`: one project, several detected projects, or a whole organization. */
export default async function issueList(
  this: TrackerContext,
  flags: IssueListFlags,
  target?: string,
): Promise<void> {
  // The window is read (and refused) before anything is asked.
  const run = prepareIssueList(this, flags);
  const t = await resolveListTargets(this, target, { command: "tracker issue list", fresh: flags.fresh });
  await listIssuesFor.call(this, run, t);
}

/** Lists and prints issues for an already resolved target (command tests pass multi-project targets directly). */
export async function listIssuesFor(
  this: TrackerContext,
  given: IssueListFlags | IssueListRun,
  t: ListTarget,
): Promise<void> {
  const flags = "win" in given ? given : prepareIssueList(this, given);
  const listing =
    t.mode === "org"
      ? await listOrg(this, t.org, flags)
      : t.mode === "multi"
        ? await listMulti(this, t.projects, flags)
        : await listOne(this, t.project, flags);
  for (const e of listing.errors) this.log.warn(`Could not list issues of ${e.project}: ${e.message}`);
  const refOf = listedRefs(listing.rows, listing.projects);
  const { rows, nextCursor, resumeAt, total, errors, hasMore, save } = listing;
  const filter = `${flags.query ?? "is:unresolved"}, sorted by ${SORT_TEXT[flags.sort] ?? flags.sort}, ${flags.win.brief}${flags.environments.length > 0 ? `, environment ${flags.environments.join(", ")}` : ""}`;
  const run: ListRun<Issue, IssueListOptions> = {
    view: ISSUE_LIST_VIEW,
    items: rows,
    options: {
      ...(listing.aliased ? { aliasOf: (i: Issue) => (i as Row).alias ?? i.project.slug } : {}),
      idOf: (i) => refOf(i as Row),
      sort: flags.sort,
    },
    page: { nextCursor, resumeAt },
    hasMore,
    extra: { ...(total === undefined ? {} : { total }), ...(errors.length > 0 ? { errors } : {}) },
    ...(save ? { save } : {}),
    // The header names the service's count of matches (X-Hits) when it sends one.
    title: `${listing.header} (${filter}):${total !== undefined && total > rows.length ? `\nShowing ${rows.length.toLocaleString("en-US")} of ${total.toLocaleString("en-US")}.` : ""}`,
  };
  if (flags.json) return writeListView(this, true, run);
  if (rows.length === 0) {
    writeTip(
      this,
      listing.pastEnd
        ? `No more issues. ${listing.header} (${filter}): the previous page was the last. Run without -c last to start again.`
        : `No issues found. ${listing.header} (${filter}).`,
    );
    return;
  }
  // What is printed is what a pipe reads back: each bare short ID means this listing's issue.
  writeListedRefs(
    this,
    rows.map((r) => {
      const ref = refOf(r);
      return {
        key: ref.includes("/") ? ref.toUpperCase().replace(/^[^/]+/, r.org) : `*/${ref.toUpperCase()}`,
        org: r.org,
        id: r.id,
      };
    }),
  );
  await writeListView(this, false, run);
  const first = listing.rows[0] as Row;
  writeListTip(this, issueViewTip(refOf(first), first.shortId, first.alias, listing.aliased));
  if (listing.hasMore) {
    // With the service's count of matches (X-Hits): "Showing 25 of 1,234".
    const n = (x: number) => x.toLocaleString("en-US");
    const shown = `${n(listing.rows.length)}${listing.total === undefined ? "" : ` of ${n(listing.total)}`}`;
    writeListTip(
      this,
      listing.resumable
        ? `Showing ${shown}; more exist. Next page: repeat the command with -c last, or show more at once with -n (up to 1000).`
        : `Showing ${shown}; more exist. Show more at once with -n (up to 1000).`,
    );
  }
}
