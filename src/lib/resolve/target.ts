/**
 * Target resolution: which organization and project(s) a command applies to.
 * Order: explicit argument, then TRACKER_ORG/TRACKER_PROJECT, then stored defaults, then DSN
 * auto-detection.
 */
import type { TrackerContext } from "../../context.ts";
import { readDefaults } from "../db/defaults.ts";
import { ContextError, ValidationError } from "../errors.ts";

/** A parsed target argument. */
export type ParsedTarget =
  | { kind: "none" }
  | { kind: "explicit"; org: string; project: string }
  | { kind: "org-all"; org: string }
  | { kind: "project-search"; project: string };

const SLUG_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const FORMS = "<org>/<project>, <org>/ (issue list only) or <project>";

/** Parses a target argument; malformed input is a ValidationError naming the allowed forms. */
export function parseTarget(raw: string | undefined): ParsedTarget {
  if (raw === undefined) return { kind: "none" };
  const text = (raw.split(/\r?\n/)[0] ?? "").trim();
  if (text === "") return { kind: "none" };
  const parts = text.split("/");
  const bad = () => new ValidationError(`Invalid target '${text}'. Use ${FORMS}.`, "target");
  if (parts.length === 1) {
    if (!SLUG_RE.test(text)) throw bad();
    return { kind: "project-search", project: text };
  }
  if (parts.length === 2) {
    const [org, project] = parts as [string, string];
    if (!SLUG_RE.test(org)) throw bad();
    if (project === "") return { kind: "org-all", org };
    if (!SLUG_RE.test(project)) throw bad();
    return { kind: "explicit", org, project };
  }
  throw bad();
}

/** One resolved project target and where it came from (for the "Using ... (from ...)" line). */
export interface ResolvedProject {
  org: string;
  project: string;
  /** `argument`, `TRACKER_ORG/TRACKER_PROJECT`, `defaults`, or a DSN source such as `.env`. */
  source: string;
  /** Short alias when several projects were detected. */
  alias?: string;
}

/** Options of resolution. */
export interface ResolveOptions {
  /** The command as typed, for examples in errors (e.g. `tracker issue list`). */
  command: string;
  /** Bypass caches. */
  fresh?: boolean;
}

function missing(resource: "Organization" | "Organization and project", opts: ResolveOptions): ContextError {
  const example = resource === "Organization" ? `${opts.command} <org>` : `${opts.command} <org>/<project>`;
  return new ContextError(resource, example, [
    "set TRACKER_ORG and TRACKER_PROJECT",
    "run `tracker defaults set <org>/<project>`",
    "add a DSN (TRACKER_DSN in .env, or your SDK init code) to this directory",
  ]);
}

/** Logs where an implicit target came from (info level, stderr). */
export function announceTarget(ctx: TrackerContext, r: ResolvedProject): void {
  if (r.source !== "argument") ctx.log.info(`Using ${r.org}/${r.project} (from ${r.source})`);
}

/** Resolves exactly one org/project; a bare `<project>` is searched across organizations. */
export async function resolveOrgProject(
  ctx: TrackerContext,
  target: string | undefined,
  opts: ResolveOptions,
): Promise<ResolvedProject> {
  const parsed = parseTarget(target);
  if (parsed.kind === "explicit") return { org: parsed.org, project: parsed.project, source: "argument" };
  if (parsed.kind === "org-all") {
    throw new ValidationError(
      `'${parsed.org}/' (all projects) is only accepted by \`tracker issue list\`; name a project: ${parsed.org}/<project>.`,
      "target",
    );
  }
  if (parsed.kind === "project-search") {
    const { findProjectAcrossOrgs } = await import("./project-search.ts");
    return findProjectAcrossOrgs(ctx, parsed.project, opts);
  }
  const env = ctx.settings;
  if (env.org && env.project) {
    const r = { org: env.org, project: env.project, source: "TRACKER_ORG/TRACKER_PROJECT" };
    announceTarget(ctx, r);
    return r;
  }
  const defaults = safeDefaults(ctx);
  const org = env.org ?? defaults.org ?? undefined;
  const project =
    env.project ?? (env.org && env.org !== defaults.org ? undefined : (defaults.project ?? undefined));
  if (org && project) {
    const r = { org, project, source: env.org || env.project ? "environment and defaults" : "defaults" };
    announceTarget(ctx, r);
    return r;
  }
  const { detectTargets } = await import("./detect.ts");
  const detected = await detectTargets(ctx, opts);
  const first = detected[0];
  if (detected.length === 1 && first) {
    announceTarget(ctx, first);
    return first;
  }
  if (detected.length > 1) {
    throw new ValidationError(
      `Several projects were detected (${detected.map((d) => `${d.org}/${d.project}`).join(", ")}); name one: ${opts.command} <org>/<project>.`,
      "target",
    );
  }
  throw missing(org ? "Organization and project" : "Organization and project", opts);
}

/** Resolves an organization only (argument, TRACKER_ORG, defaults, DSN). */
export async function resolveOrg(
  ctx: TrackerContext,
  target: string | undefined,
  opts: ResolveOptions,
): Promise<{ org: string; source: string }> {
  const text = target?.trim();
  if (text) {
    const slug = text.replace(/\/$/, "");
    if (!SLUG_RE.test(slug)) throw new ValidationError(`Invalid organization '${text}'.`, "org");
    return { org: slug, source: "argument" };
  }
  if (ctx.settings.org) return { org: ctx.settings.org, source: "TRACKER_ORG" };
  const defaults = safeDefaults(ctx);
  if (defaults.org) return { org: defaults.org, source: "defaults" };
  const { detectTargets } = await import("./detect.ts");
  const detected = await detectTargets(ctx, opts);
  const orgs = [...new Set(detected.map((d) => d.org))];
  if (orgs.length === 1 && orgs[0]) return { org: orgs[0], source: detected[0]?.source ?? "DSN" };
  throw missing("Organization", opts);
}

function safeDefaults(ctx: TrackerContext) {
  try {
    return readDefaults(ctx);
  } catch (err) {
    ctx.log.warn(`Stored defaults unavailable: ${(err as Error).message}`);
    return { org: null, project: null };
  }
}
