/**
 * The merged configuration of a run with provenance: where the organization, project, service
 * URL and a file's token come from. Order (highest first): environment (TRACKER_*, then SENTRY_*),
 * `tracker defaults set --here` of the enclosing project tree, the global `tracker defaults`, then
 * the Sentry configuration files (`sentry.properties`, `.sentryclirc` upward, `~/.sentryclirc`),
 * key by key. A project only goes with the organization of its own layer (or any, when its layer
 * names none); last, the organization an org auth token names (its `org` claim). Explicit
 * arguments and DSN detection are the resolver's business.
 */
import { join, relative, resolve, sep } from "node:path";
import type { TrackerContext } from "../../context.ts";
import { readDefaults } from "../db/defaults.ts";
import { type ProjectDefault, readProjectDefault } from "../db/project-defaults.ts";
import { configFileUrl, DEFAULT_BASE_URL } from "../env.ts";
import type { ConfigFile } from "./files.ts";
import { tokenOrgLayer } from "./token-org.ts";

/** What kind of place a value came from. */
export type SourceKind = "env" | "here" | "defaults" | "file" | "login" | "token" | "default";

/** Where one value came from: `label` is what people read (`.sentryclirc`, `SENTRY_ORG`, …). */
export interface Provenance {
  kind: SourceKind;
  label: string;
  /** The file, or the project root of a `--here` default; null otherwise. */
  path: string | null;
}

/** A value with its provenance. */
export interface Sourced {
  value: string;
  source: Provenance;
}

/** One layer of the cascade: the organization and project it names. */
interface Layer {
  org?: Sourced;
  project?: Sourced;
}

/** The files of this run (read once, on first use). */
export function configFiles(ctx: TrackerContext): readonly ConfigFile[] {
  return ctx.settings.configFiles?.() ?? [];
}

/** A file's path as shown: `~/.sentryclirc` for the global one, else relative to the working directory. */
export function fileLabel(ctx: TrackerContext, path: string): string {
  const home = resolve(ctx.homeDir);
  if (path === join(home, ".sentryclirc")) return "~/.sentryclirc";
  const rel = relative(ctx.cwd, path);
  if (!rel.startsWith(`..${sep}..${sep}..${sep}`)) return rel || path;
  return path.startsWith(home + sep) ? `~/${relative(home, path)}` : path;
}

/** The provenance of a value read from `file`. */
export function fileSource(ctx: TrackerContext, file: ConfigFile): Provenance {
  return { kind: "file", label: fileLabel(ctx, file.path), path: file.path };
}

function envSourced(value: string | undefined, name: string | undefined): Sourced | undefined {
  return value && name ? { value, source: { kind: "env", label: name, path: null } } : undefined;
}

/** The `--here` default of the project tree around the working directory; undefined when none or unreadable. */
export function hereDefault(ctx: TrackerContext): ProjectDefault | undefined {
  try {
    return readProjectDefault(ctx, resolve(ctx.cwd));
  } catch (err) {
    ctx.log.warn(`Stored defaults unavailable: ${(err as Error).message}`);
    return undefined;
  }
}

function storedLayers(ctx: TrackerContext): Layer[] {
  const layers: Layer[] = [];
  const here = hereDefault(ctx);
  if (here) {
    const source: Provenance = { kind: "here", label: "defaults --here", path: here.root };
    layers.push({
      org: { value: here.org, source },
      ...(here.project ? { project: { value: here.project, source } } : {}),
    });
  }
  try {
    const d = readDefaults(ctx);
    const source: Provenance = { kind: "defaults", label: "defaults", path: null };
    layers.push({
      ...(d.org ? { org: { value: d.org, source } } : {}),
      ...(d.project ? { project: { value: d.project, source } } : {}),
    });
  } catch (err) {
    ctx.log.warn(`Stored defaults unavailable: ${(err as Error).message}`);
  }
  return layers;
}

function fileLayers(ctx: TrackerContext): Layer[] {
  return configFiles(ctx).map((f) => {
    const source = fileSource(ctx, f);
    return {
      ...(f.values.org ? { org: { value: f.values.org, source } } : {}),
      ...(f.values.project ? { project: { value: f.values.project, source } } : {}),
    };
  });
}

/**
 * The organization and project the configuration names (no argument, no DSN), each with where
 * it came from; `env: false` leaves the environment out (what `defaults show` lists below it).
 */
export function configTarget(ctx: TrackerContext, opts: { env?: boolean } = {}): Layer {
  const s = ctx.settings;
  const layers: Layer[] = [];
  if (opts.env !== false) {
    const org = envSourced(s.org, s.orgVar);
    const project = envSourced(s.project, s.projectVar);
    layers.push({ ...(org ? { org } : {}), ...(project ? { project } : {}) });
  }
  layers.push(...storedLayers(ctx), ...fileLayers(ctx));
  // The token is only looked at when nothing else names an organization (it is the lowest layer).
  const fromToken = layers.some((l) => l.org)
    ? undefined
    : tokenOrgLayer(ctx, () => fileTokenForService(ctx)?.token);
  if (fromToken) layers.push({ org: { value: fromToken, source: TOKEN_SOURCE } });
  const org = layers.find((l) => l.org)?.org;
  const project = layers.find((l) => l.project && (!l.org || !org || l.org.value === org.value))?.project;
  return { ...(org ? { org } : {}), ...(project ? { project } : {}) };
}

/** The provenance of an organization named by the org auth token in use: "(from the org token)". */
export const TOKEN_SOURCE: Provenance = { kind: "token", label: "the org token", path: null };

/** How "Using acme/web (from …)" names the sources of an organization and a project. */
export function describeSources(org: Provenance, project: Provenance): string {
  if (org.label === project.label) return org.label;
  if (org.kind === "env" && project.kind === "env") return `${org.label}/${project.label}`;
  if (org.kind === "env") return `environment and ${project.label}`;
  if (project.kind === "env") return `environment and ${org.label}`;
  return `${org.label} and ${project.label}`;
}

/** A token from a configuration file, and the one service URL it may be sent to. */
export interface FileToken {
  token: string;
  file: ConfigFile;
  label: string;
  /** The file's own `url` (normalised), or the hosted service when it names none; null: not a URL. */
  url: string | null;
}

/** Every token the configuration files hold, highest precedence first. */
export function fileTokens(ctx: TrackerContext): FileToken[] {
  return configFiles(ctx).flatMap((file) =>
    file.values.token
      ? [
          {
            token: file.values.token,
            file,
            label: fileLabel(ctx, file.path),
            url: file.values.url ? (configFileUrl(file) ?? null) : DEFAULT_BASE_URL,
          },
        ]
      : [],
  );
}

/** The first file token meant for the run's service URL, if any. */
export function fileTokenForService(ctx: TrackerContext): FileToken | undefined {
  return fileTokens(ctx).find((t) => t.url === ctx.settings.baseUrl);
}

/** Why file tokens were not used for this service URL (one sentence), or undefined when there are none. */
export function skippedFileTokens(ctx: TrackerContext): string | undefined {
  const skipped = fileTokens(ctx).filter((t) => t.url !== ctx.settings.baseUrl);
  if (skipped.length === 0) return undefined;
  const each = skipped.map((t) => (t.url ? `${t.label} is for ${t.url}` : `${t.label} names no valid url`));
  return `The token in ${each.join("; the token in ")}, not ${ctx.settings.baseUrl}: it was not sent.`;
}
