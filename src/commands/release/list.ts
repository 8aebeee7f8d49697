import type { TrackerContext } from "../../context.ts";
import { listReleases, projectIdFromReleases, type Release } from "../../lib/api/releases.ts";
import { cacheProjects } from "../../lib/db/project-cache.ts";
import { continuesPastEnd, cursorKey, resolveCursor, saveCursor } from "../../lib/db/cursors.ts";
import type { Page } from "../../lib/http/paginate.ts";
import { RELEASE_LIST_VIEW, releaseListOptions } from "../../lib/format/release-table.ts";
import { rememberCompletionValues } from "../../lib/db/completion-values.ts";
import { writeListTip, writePastEnd, writeTip } from "../../lib/output.ts";
import { writeListView } from "../../lib/view/render.ts";
import { type ListScope, resolveListScope } from "../../lib/release/target.ts";
import { withSlugHint } from "../../lib/resolve/target.ts";
import type { ReleaseListFlags } from "./index.ts";
import { nextPageCommand } from "../../lib/list-page.ts";
import { chosenEnvironments, environmentArgv, environmentKey } from "../../lib/environments.ts";
import { quoteWord } from "../../lib/shell-quote.ts";

/**
 * One listing: the org endpoint (with health data) when the project's id is known or the whole
 * organization is listed, else the project endpoint (date order). Another sort without a known
 * id first learns it from the project's newest release (readable with an org token).
 */
async function fetchPage(
  ctx: TrackerContext,
  scope: ListScope,
  flags: ReleaseListFlags,
  query: string | undefined,
  cursor: string | undefined,
  environments: readonly string[],
): Promise<Page<Release>> {
  let projectId = scope.projectId;
  if (scope.project && !projectId && flags.sort !== "date") {
    projectId = await projectIdFromReleases(ctx, scope.org, scope.project);
    if (!projectId) return { data: [], nextCursor: undefined };
  }
  const which = projectId ? { projectId } : scope.project ? { projectSlug: scope.project } : {};
  const { limit, sort } = flags;
  return listReleases(ctx, { org: scope.org, ...which, limit, query, sort, cursor, environments });
}

/** The projects the releases name, remembered so the next listing can ask with their ids. */
function rememberProjects(ctx: TrackerContext, org: string, rows: readonly Release[]): void {
  const seen = new Map<string, { slug: string; id: string; name: string; platform?: string | null }>();
  for (const r of rows) {
    for (const p of r.projects ?? []) {
      seen.set(String(p.id), {
        slug: p.slug,
        id: String(p.id),
        name: p.name ?? p.slug,
        platform: p.platform,
      });
    }
  }
  cacheProjects(ctx, org, [...seen.values()]);
}

/** `tracker release list`: resolve the scope, page to the limit, remember cursor and ids, render. */
export default async function releaseList(
  this: TrackerContext,
  flags: ReleaseListFlags,
  target?: string,
): Promise<void> {
  const environments = chosenEnvironments(this, flags.environment);
  const scope = await resolveListScope(this, target, "tracker release list");
  const where = scope.project ? `${scope.org}/${scope.project}` : `${scope.org}/`;
  const query = flags.query?.trim() ? flags.query.trim() : undefined;
  const key = cursorKey("release-list", where, { sort: flags.sort, query, ...environmentKey(environments) });
  if (continuesPastEnd(this, key, flags.cursor))
    return writePastEnd(this, flags.json, `releases in ${where}`);
  const cursor = resolveCursor(this, key, flags.cursor);
  const page = await withSlugHint(this, { org: scope.org, project: scope.project }, () =>
    fetchPage(this, scope, flags, query, cursor, environments),
  );
  saveCursor(this, key, page.nextCursor);
  rememberProjects(this, scope.org, page.data);
  rememberCompletionValues(
    this,
    "release",
    scope.org,
    page.data.map((r) => r.version),
  );
  const { data, ...rest } = page;
  const run = {
    view: RELEASE_LIST_VIEW,
    items: data,
    options: releaseListOptions(data, scope.project),
    page: rest,
    save: (c: string | undefined) => saveCursor(this, key, c),
  };
  if (flags.json) return writeListView(this, true, run);
  if (data.length === 0) {
    const filter = query ? ` matching '${query}'` : "";
    writeTip(this, cursor ? `No more releases in ${where}${filter}.` : `No releases in ${where}${filter}.`);
    return;
  }
  await writeListView(this, false, run);
  const envText = environments.length > 0 ? ` (${environments.join(", ")})` : "";
  const shown = `Showing ${data.length} release${data.length === 1 ? "" : "s"} of ${where}${envText}.`;
  const again = nextPageCommand(
    "tracker release list",
    where,
    environmentArgv(environments, flags.environment),
  );
  writeListTip(this, page.nextCursor ? `${shown} More: ${again}` : shown);
  writeListTip(this, `Show one: tracker release view <VERSION> ${quoteWord(scope.org)}`);
}
