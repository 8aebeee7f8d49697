import type { TrackerContext } from "../../context.ts";
import { getOrganization } from "../../lib/api/organizations.ts";
import { getProject } from "../../lib/api/projects.ts";
import { writeDefaultEnvironments, writeDefaults } from "../../lib/db/defaults.ts";
import { writeProjectDefault } from "../../lib/db/project-defaults.ts";
import { ValidationError } from "../../lib/errors.ts";
import { writeResult } from "../../lib/view/write.ts";
import { parseTarget, withSlugHint } from "../../lib/resolve/target.ts";
import { type HereFlags, hereRoot } from "./here.ts";

/**
 * `tracker defaults set <org>` / `<org>/<project>`: validated against the API, then stored; with
 * `--here`, for the project tree around the working directory only.
 */
export default async function defaultsSet(
  this: TrackerContext,
  flags: HereFlags & { environment?: readonly string[] },
  target?: string,
): Promise<void> {
  const environments = flags.environment === undefined ? undefined : [...new Set(flags.environment)];
  if (environments && flags.here) {
    throw new ValidationError("--environment is a global default; leave --here out to set it.", "here");
  }
  if (target === undefined) {
    if (!environments) {
      throw new ValidationError(
        "Name an organization or a project, or environments: tracker defaults set [--here] <org>[/<project>] | --environment <name>.",
        "target",
      );
    }
    writeDefaultEnvironments(this, environments);
    return writeResult(
      this,
      flags.json,
      { environments },
      `Default environment set to ${environments.join(", ")}.`,
    );
  }
  const root = flags.here ? hereRoot(this) : undefined;
  const parsed = parseTarget(target);
  let org: string;
  let project: string | null = null;
  if (parsed.kind === "explicit") {
    org = parsed.org;
    project = parsed.project;
  } else if (parsed.kind === "org-all") org = parsed.org;
  else if (parsed.kind === "project-search") {
    // A lone word is an organization here (the spec's `defaults set <org>`).
    org = parsed.project;
  } else {
    throw new ValidationError(
      "Name an organization or a project: tracker defaults set [--here] <org>[/<project>].",
      "target",
    );
  }
  if (project) {
    const p = await withSlugHint(this, { org, project }, () => getProject(this, org, project as string));
    project = p.slug;
  } else {
    const o = await withSlugHint(this, { org }, () => getOrganization(this, org));
    org = o.slug;
  }
  if (root) {
    writeProjectDefault(this, { root, org, project });
    const what = project ? `Default set to ${org}/${project}` : `Default organization set to ${org}`;
    return writeResult(this, flags.json, { org, project, root }, `${what} for ${root}.`);
  }
  writeDefaults(this, { org, project });
  if (environments) writeDefaultEnvironments(this, environments);
  writeResult(this, flags.json, { org, project, ...(environments ? { environments } : {}) }, [
    project ? `Default set to ${org}/${project}.` : `Default organization set to ${org}.`,
    ...(environments ? [`Default environment set to ${environments.join(", ")}.`] : []),
  ]);
}
