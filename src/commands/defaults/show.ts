import type { TrackerContext } from "../../context.ts";
import { serviceUrlSource } from "../../lib/config/service-url.ts";
import { configTarget, hereDefault, type Provenance } from "../../lib/config/sources.ts";
import { readDefaultEnvironments, readDefaults } from "../../lib/db/defaults.ts";
import type { GlobalFlags } from "../../lib/flags.ts";
import { writeJson, writeLines, writeTip } from "../../lib/output.ts";

function describe(value: string | undefined, source: Provenance | undefined): string {
  if (!value || !source) return "-";
  return source.kind === "default" ? `${value} (default)` : `${value} (from ${source.label})`;
}

/** The stored global default (`defaults set`) and whether a `--here` default shadows it here. */
function globalDefault(
  ctx: TrackerContext,
  t: ReturnType<typeof configTarget>,
): { org: string | null; project: string | null; shadowed: boolean } | null {
  const d = readDefaults(ctx);
  if (!d.org && !d.project) return null;
  const shadowed =
    (d.org !== null && t.org?.source.kind === "here") ||
    (d.project !== null && t.project?.source.kind === "here");
  return { org: d.org, project: d.project, shadowed };
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
  const here = hereDefault(this) ?? null;
  const global = globalDefault(this, t);
  const url = { value: this.settings.baseUrl, source: serviceUrlSource(this) };
  if (flags.json) {
    return writeJson(this, {
      org: t.org?.value ?? null,
      project: t.project?.value ?? null,
      url: url.value,
      sources: { org: t.org?.source ?? null, project: t.project?.source ?? null, url: url.source },
      here,
      global,
      environments,
    });
  }
  if (!t.org && !t.project && environments.length === 0) {
    writeLines(this, ["No defaults set.", `URL:           ${describe(url.value, url.source)}`]);
    writeTip(this, "Set them with: tracker defaults set <org>/<project> (--here: for this project only)");
  } else {
    writeLines(this, [
      `Organization:  ${describe(t.org?.value, t.org?.source)}`,
      `Project:       ${describe(t.project?.value, t.project?.source)}`,
      `URL:           ${describe(url.value, url.source)}`,
    ]);
  }
  if (environments.length > 0) writeLines(this, `Environment:   ${environments.join(", ")} (default)`);
  if (here) {
    writeLines(
      this,
      `Here:          ${here.project ? `${here.org}/${here.project}` : here.org} (for ${here.root})`,
    );
  }
  if (global?.shadowed) {
    const named = global.project ? `${global.org ?? "-"}/${global.project}` : (global.org ?? "-");
    writeLines(this, `Global:        ${named} (shadowed here by defaults --here)`);
  }
  const configured = configTarget(this, { env: false });
  for (const [key, effective, below] of [
    ["org", t.org, configured.org],
    ["project", t.project, configured.project],
  ] as const) {
    if (effective?.source.kind === "env" && below && below.value !== effective.value) {
      writeTip(
        this,
        `${effective.source.label}=${effective.value} is set and takes precedence over the ${key} from ${below.source.label} (${below.value}).`,
      );
    }
  }
}
