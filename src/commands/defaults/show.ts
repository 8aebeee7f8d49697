import type { TrackerContext } from "../../context.ts";
import { serviceUrlSource } from "../../lib/config/service-url.ts";
import { configTarget, hereDefault } from "../../lib/config/sources.ts";
import { readDefaultEnvironments, readDefaults } from "../../lib/db/defaults.ts";
import type { GlobalFlags } from "../../lib/flags.ts";
import { DEFAULTS_VIEW, type DefaultsDocument, type GlobalDefault } from "../../lib/format/defaults-show.ts";
import { writeTip } from "../../lib/output.ts";
import { writeDocView } from "../../lib/view/render.ts";

/** The stored global default (`defaults set`) and whether a `--here` default shadows it here. */
function globalDefault(ctx: TrackerContext, t: ReturnType<typeof configTarget>): GlobalDefault | null {
  const d = readDefaults(ctx);
  if (!d.org && !d.project) return null;
  const shadowed =
    (d.org !== null && t.org?.source.kind === "here") ||
    (d.project !== null && t.project?.source.kind === "here");
  return { org: d.org, project: d.project, shadowed };
}

/** What to say beside the defaults: how to set them when none are, and what an env var overrides. */
function notesOf(ctx: TrackerContext, doc: DefaultsDocument, t: ReturnType<typeof configTarget>): string[] {
  const notes: string[] = [];
  if (doc.org === null && doc.project === null && doc.environments.length === 0)
    notes.push("Set them with: tracker defaults set <org>/<project> (--here: for this project only)");
  const configured = configTarget(ctx, { env: false });
  for (const [key, effective, below] of [
    ["org", t.org, configured.org],
    ["project", t.project, configured.project],
  ] as const) {
    if (effective?.source.kind === "env" && below && below.value !== effective.value) {
      notes.push(
        `${effective.source.label}=${effective.value} is set and takes precedence over the ${key} from ${below.source.label} (${below.value}).`,
      );
    }
  }
  return notes;
}

/**
 * `tracker defaults` / `defaults show`: the organization, project and service URL a command run
 * here would use without an argument (DSN detection aside), each with where it comes from:
 * environment, `defaults --here`, stored defaults or a Sentry configuration file; a global default
 * a `--here` default shadows is listed too, marked so.
 */
export default async function defaultsShow(this: TrackerContext, flags: GlobalFlags): Promise<void> {
  // An unusable config directory is this command's error, not a warning of the cascade.
  readDefaults(this);
  const environments = readDefaultEnvironments(this);
  const t = configTarget(this);
  const doc: DefaultsDocument = {
    org: t.org?.value ?? null,
    project: t.project?.value ?? null,
    url: this.settings.baseUrl,
    sources: { org: t.org?.source ?? null, project: t.project?.source ?? null, url: serviceUrlSource(this) },
    here: hereDefault(this) ?? null,
    global: globalDefault(this, t),
    environments,
  };
  const notes = notesOf(this, doc, t);
  await writeDocView(this, flags.json, DEFAULTS_VIEW, { doc, notes });
  if (!flags.json) for (const note of notes) writeTip(this, note);
}
