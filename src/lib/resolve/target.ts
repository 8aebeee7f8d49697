/**
 * Target resolution: which organization and project(s) a command applies to.
 * Order: explicit argument, then TRACKER_ORG/TRACKER_PROJECT (SENTRY_ORG/SENTRY_PROJECT below
 * them), then stored defaults (`--here`, then global) and the Sentry configuration files
 * (`lib/config/sources.ts`), then DSN auto-detection (TRACKER_DSN/SENTRY_DSN, `.env*` files,
 * source code under the project root).
 */
import type { TrackerContext } from "../../context.ts";
import { configTarget, describeSources } from "../config/sources.ts";
import { ContextError, ResolutionError, ValidationError } from "../errors.ts";
import { looksLikeUrl, parseServiceUrl, SLUG_RE } from "./url.ts";
import { quoteWord } from "../shell-quote.ts";

/** A parsed target argument. */
export type ParsedTarget =
  | { kind: "none" }
  | { kind: "explicit"; org: string; project: string }
  | { kind: "org-all"; org: string }
  | { kind: "project-search"; project: string };

const FORMS = "<org>/<project>, <org>/ (issue list only), <project>, or a project URL";

/** Trims a pasted value and keeps its first non-empty line. */
export function cleanInput(raw: string): string {
  return (raw.split(/\r?\n/).find((l) => l.trim() !== "") ?? "").trim();
}

/** Parses a target argument; malformed input is a ValidationError naming the allowed forms. */
export function parseTarget(raw: string | undefined): ParsedTarget {
  if (raw === undefined) return { kind: "none" };
  const text = cleanInput(raw);
  if (text === "") return { kind: "none" };
  const bad = (why?: string) =>
    new ValidationError(`Invalid target '${text}'${why ? ` (${why})` : ""}. Use ${FORMS}.`, "target");
  if (looksLikeUrl(text)) {
    const u = parseServiceUrl(text);
    if (!u?.org) throw bad("not a project or organization URL of the service");
    if (u.issue) throw bad(`an issue URL; use \`tracker issue view ${quoteWord(text)}\``);
    if (!SLUG_RE.test(u.org) || (u.project !== undefined && !SLUG_RE.test(u.project))) throw bad();
    return u.project ? { kind: "explicit", org: u.org, project: u.project } : { kind: "org-all", org: u.org };
  }
  const parts = text.split("/");
  if (parts.length === 1) {
    if (!SLUG_RE.test(text)) throw bad();
    return { kind: "project-search", project: text };
  }
  if (parts.length === 2) {
    const [org, project] = parts as [string, string];
    if (!SLUG_RE.test(org)) throw bad(org === "" ? "empty organization" : undefined);
    if (project === "") return { kind: "org-all", org };
    if (!SLUG_RE.test(project)) throw bad();
    return { kind: "explicit", org, project };
  }
  throw bad("too many slashes");
}

/** One resolved project target and where it came from (for the "Using ... (from ...)" line). */
export interface ResolvedProject {
  org: string;
  project: string;
  /** `argument`, `TRACKER_ORG/TRACKER_PROJECT`, `defaults`, `.sentryclirc`, or a DSN source such as `.env`. */
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

/** The ContextError of spec section 7, with a command example and the other ways to give context. */
export function missingContext(
  resource: "Organization" | "Organization and project",
  opts: ResolveOptions,
  knownOrg?: string,
): ContextError {
  if (resource === "Organization") {
    return new ContextError(resource, `${opts.command} <org>`, [
      "set TRACKER_ORG",
      "run `tracker defaults set <org>`",
      "add a DSN (TRACKER_DSN in .env, or your SDK init code) to this directory",
    ]);
  }
  return new ContextError(resource, `${opts.command} ${knownOrg ?? "<org>"}/<project>`, [
    "set TRACKER_ORG and TRACKER_PROJECT",
    "run `tracker defaults set <org>/<project>`",
    "add a DSN (TRACKER_DSN in .env, or your SDK init code) to this directory",
  ]);
}

/** Logs where an implicit target came from (info level, stderr). */
export function announceTarget(ctx: TrackerContext, r: ResolvedProject): void {
  if (r.source !== "argument") ctx.log.info(`Using ${r.org}/${r.project} (from ${r.source})`);
}

/**
 * An organization named by the context without a project (TRACKER_ORG alone, or defaults or a
 * configuration file naming an organization only): listings then cover the whole organization.
 */
export function orgOnlyContext(ctx: TrackerContext): { org: string; source: string } | undefined {
  if (ctx.settings.project) return undefined;
  const t = configTarget(ctx);
  return t.org && !t.project ? { org: t.org.value, source: t.org.source.label } : undefined;
}

async function detectedProjects(ctx: TrackerContext, opts: ResolveOptions): Promise<ResolvedProject[]> {
  const { detectTargets } = await import("./detect.ts");
  return detectTargets(ctx, opts);
}

/**
 * Runs the cascade without an argument: TRACKER_ORG/TRACKER_PROJECT, stored defaults, DSN
 * detection. Returns every project found (several in a monorepo); throws ContextError when none.
 */
export async function resolveImplicitProjects(
  ctx: TrackerContext,
  opts: ResolveOptions,
): Promise<ResolvedProject[]> {
  const env = ctx.settings;
  ctx.log.debug(
    env.org || env.project
      ? `Target: environment ${[env.org && `${env.orgVar}=${env.org}`, env.project && `${env.projectVar}=${env.project}`].filter(Boolean).join(", ")}`
      : "Target: TRACKER_ORG/TRACKER_PROJECT not set",
  );
  const t = configTarget(ctx);
  ctx.log.debug(
    t.org || t.project
      ? `Target: configured ${t.org ? `${t.org.value} (from ${t.org.source.label})` : "no organization"}, ${t.project ? `${t.project.value} (from ${t.project.source.label})` : "no project"}`
      : "Target: no stored defaults",
  );
  const org = t.org?.value;
  if (t.org && t.project) {
    return [
      { org: t.org.value, project: t.project.value, source: describeSources(t.org.source, t.project.source) },
    ];
  }
  if (!org && t.project) {
    ctx.log.debug(
      `Target: searching organizations for project ${t.project.value} (from ${t.project.source.label})`,
    );
    const { findProjectAcrossOrgs } = await import("./project-search.ts");
    const found = await findProjectAcrossOrgs(ctx, t.project.value, opts);
    return [{ ...found, source: t.project.source.label }];
  }
  const detected = await detectedProjects(ctx, opts);
  const usable = org ? detected.filter((d) => d.org === org) : detected;
  if (org && detected.length > usable.length) {
    ctx.log.debug(`Target: ignoring DSN projects outside organization ${org}`);
  }
  if (usable.length > 0) return usable;
  throw missingContext("Organization and project", opts, org);
}

/** Resolves exactly one org/project; a bare `<project>` is searched across organizations. */
export async function resolveOrgProject(
  ctx: TrackerContext,
  target: string | undefined,
  opts: ResolveOptions,
): Promise<ResolvedProject> {
  const parsed = parseTarget(target);
  if (parsed.kind === "explicit") {
    ctx.log.debug(`Target: argument ${parsed.org}/${parsed.project}`);
    return { org: parsed.org, project: parsed.project, source: "argument" };
  }
  if (parsed.kind === "org-all") {
    throw new ValidationError(
      `'${parsed.org}/' (all projects) is only accepted by the list commands (issue, log, span, trace list); name a project: ${parsed.org}/<project>.`,
      "target",
    );
  }
  if (parsed.kind === "project-search") {
    ctx.log.debug(`Target: searching organizations for project ${parsed.project}`);
    const { findProjectAcrossOrgs } = await import("./project-search.ts");
    return findProjectAcrossOrgs(ctx, parsed.project, opts);
  }
  ctx.log.debug("Target: no argument");
  const projects = await resolveImplicitProjects(ctx, opts);
  const first = projects[0] as ResolvedProject;
  if (projects.length > 1) {
    throw new ResolutionError(
      "Target",
      `is ambiguous: ${projects.length} projects were detected`,
      `Name one of them, e.g. \`${opts.command} ${first.org}/${first.project}\`.`,
      projects.map((p) => `${p.org}/${p.project} (from ${p.source})`),
    );
  }
  announceTarget(ctx, first);
  return first;
}

/**
 * The organizations the context names when no argument does: TRACKER_ORG, else the stored default,
 * else those of the detected DSNs (several in a monorepo that spans organizations); none when
 * nothing names one. `source` says where they came from.
 */
export async function contextOrgs(
  ctx: TrackerContext,
  opts: ResolveOptions,
): Promise<{ orgs: string[]; source: string }> {
  const t = configTarget(ctx);
  if (t.org) return { orgs: [t.org.value], source: t.org.source.label };
  ctx.log.debug("Target: no organization in the environment, defaults or configuration files");
  const detected = await detectedProjects(ctx, opts);
  const orgs = [...new Set(detected.map((d) => d.org))];
  return { orgs, source: orgs.length === 1 ? (detected[0]?.source ?? "a DSN") : "detected DSNs" };
}

/** Resolves an organization only (argument, TRACKER_ORG/SENTRY_ORG, defaults, configuration files, DSN). */
export async function resolveOrg(
  ctx: TrackerContext,
  target: string | undefined,
  opts: ResolveOptions,
): Promise<{ org: string; source: string }> {
  const text = target === undefined ? "" : cleanInput(target);
  if (text) {
    const fromUrl = looksLikeUrl(text) ? parseServiceUrl(text)?.org : undefined;
    const slug = fromUrl ?? text.replace(/\/$/, "");
    if (!SLUG_RE.test(slug)) {
      throw new ValidationError(
        `Invalid organization '${text}'. Use an organization slug such as acme.`,
        "org",
      );
    }
    ctx.log.debug(`Target: organization ${slug} from the argument`);
    return { org: slug, source: "argument" };
  }
  const { orgs, source } = await contextOrgs(ctx, opts);
  if (orgs.length > 1) {
    throw new ResolutionError(
      "Organization",
      `is ambiguous: DSNs of ${orgs.length} organizations were detected`,
      `Name one of them, e.g. \`${opts.command} ${orgs[0]}\`.`,
      orgs,
    );
  }
  const r = orgs[0] ? { org: orgs[0], source } : undefined;
  if (!r) throw missingContext("Organization", opts);
  ctx.log.info(`Using organization ${r.org} (from ${r.source})`);
  return r;
}

export { explainNotFound, withSlugHint } from "./not-found.ts";
