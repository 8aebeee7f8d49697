import type { TrackerContext } from "../../context.ts";
import { getProject, listProjectKeys, primaryDsn } from "../../lib/api/projects.ts";
import { ApiError } from "../../lib/errors.ts";
import type { GlobalFlags } from "../../lib/flags.ts";
import { PROJECT_VIEW } from "../../lib/format/project-views.ts";
import { resolveOrgProject, withSlugHint } from "../../lib/resolve/target.ts";
import { writeDocView } from "../../lib/view/render.ts";
import { openWeb, webPath } from "../../lib/web.ts";

/** Flags of `project view`. */
export interface ProjectViewFlags extends GlobalFlags {
  readonly fresh: boolean;
  readonly web: boolean;
}

/** `tracker project view [<org>/<project>]`: the project object plus its public DSN. */
export default async function projectView(
  this: TrackerContext,
  flags: ProjectViewFlags,
  target?: string,
): Promise<void> {
  const t = await resolveOrgProject(this, target, { command: "tracker project view", fresh: flags.fresh });
  if (flags.web) return openWeb(this, t.org, webPath.project(t.project), flags.json);
  // The project and its keys at once: one round trip.
  const [project, dsn] = await Promise.all([
    withSlugHint(this, t, () => getProject(this, t.org, t.project)),
    listProjectKeys(this, t.org, t.project).then(
      (keys) => primaryDsn(keys) ?? null,
      (err: unknown) => {
        // Reading keys needs project:read on the project; the project itself is still worth showing.
        if (!(err instanceof ApiError && (err.status === 403 || err.status === 404))) throw err;
        this.log.debug(`Project keys unavailable: ${err.message}`);
        return null;
      },
    ),
  ]);
  await writeDocView(this, flags.json, PROJECT_VIEW, { project, dsn, org: t.org });
}
