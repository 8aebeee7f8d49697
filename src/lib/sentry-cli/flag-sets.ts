/**
 * The parts the sentry-cli table (forms.ts) shares: flag sets used by several forms (target,
 * deploys, uploads) and the argv builders of the forms that need more than the default.
 */
import { ignoreFileGlobs } from "./ignore-file.ts";
import type { CompatFlag, CompatForm, FormMatch } from "./types.ts";

/** sentry-cli's `-o/--org`: the run's organization. */
export const ORG: CompatFlag = { names: ["--org", "-o"], value: true, env: "TRACKER_ORG" };
/** sentry-cli's `-p/--project`: the run's project. */
export const PROJECT: CompatFlag = { names: ["--project", "-p"], value: true, env: "TRACKER_PROJECT" };
/** `-o` and `-p`, as most forms take them. */
export const TARGET: readonly CompatFlag[] = [ORG, PROJECT];

/** sentry-cli's flags of a new deploy (`releases deploys <v> new`, `deploys new`). */
export const DEPLOY_FLAGS: CompatFlag[] = [
  ORG,
  PROJECT,
  { names: ["--env", "-e"], value: true, to: "--env" },
  { names: ["--name", "-n"], value: true, to: "--name" },
  { names: ["--url", "-u"], value: true, to: "--url" },
  { names: ["--started"], value: true, to: "--started" },
  { names: ["--finished"], value: true, to: "--finished" },
  { names: ["--time", "-t"], value: true, read: "--started/--finished (seconds the deploy took, until now)" },
];

/** sentry-cli's flags of `sourcemaps upload` (also `releases files <v> upload-sourcemaps`). */
export const UPLOAD_FLAGS: CompatFlag[] = [
  ...TARGET,
  { names: ["--release", "-r"], value: true, to: "--release" },
  { names: ["--dist", "-d"], value: true, to: "--dist" },
  { names: ["--url-prefix", "-u"], value: true, to: "--url-prefix" },
  { names: ["--url-suffix"], value: true, to: "--url-suffix" },
  // sentry-cli's --strip-prefix shortens the source paths inside the maps, not the files' URLs
  // (tracker's --strip-prefix changes URLs): passing it on would move the files.
  { names: ["--strip-prefix"], value: true, note: "source paths inside the maps are kept as they are" },
  { names: ["--strip-common-prefix"], note: "source paths inside the maps are kept as they are" },
  { names: ["--ext", "-x"], value: true, to: "--ext", join: "," },
  { names: ["--ignore", "-i"], value: true, to: "--ignore" },
  { names: ["--ignore-file", "-I"], value: true, read: "--ignore per line (gitignore patterns, no !)" },
  { names: ["--wait"], to: "--wait" },
  {
    names: ["--wait-for"],
    value: true,
    dropValue: true,
    to: "--wait",
    note: "waits without a time limit of its own",
  },
  { names: ["--no-rewrite"], to: "--no-rewrite" },
  { names: ["--rewrite"], note: "tracker's default" },
  { names: ["--validate"], note: "tracker always checks the maps it rewrites" },
  { names: ["--no-dedupe"], to: "--force" },
  { names: ["--note"], value: true, note: "nothing to attach it to" },
  { names: ["--strict", "-s"], note: "problems with maps are always reported" },
  { names: ["--decompress"], note: "bundles are compressed as the service accepts" },
  { names: ["--no-sourcemap-reference"], note: "maps are found by debug ID" },
  { names: ["--debug-id-reference"], note: "maps are found by debug ID" },
  { names: ["--use-artifact-bundle"], note: "always an artifact bundle" },
  {
    names: ["--bundle", "--bundle-sourcemap"],
    value: true,
    missing: "React Native RAM bundles have no tracker command",
  },
];

function words(tracker: string): string[] {
  const out: string[] = [];
  for (const w of tracker.split(" ")) {
    if (!/^[a-z][a-z0-9-]*$/.test(w)) break;
    out.push(w);
  }
  return out;
}

/** tracker's words, the form's `<name>` words, the other positionals and the flags, then `-- job`. */
export function defaultArgv(form: CompatForm, m: FormMatch): string[] {
  const out = [...words(form.tracker), ...Object.values(m.params), ...m.positionals, ...m.flags];
  if (m.after !== undefined) out.push("--", ...m.after);
  return out;
}

/** The first value given for a sentry-cli flag (by its first name). */
export const first = (m: FormMatch, flag: string): string | undefined => m.values.get(flag)?.[0];

/** `releases deploys <v> new` and `deploys new -r <v>`: sentry-cli's --time is "took this many seconds, until now". */
export function deployArgv(version: string, m: FormMatch): string[] {
  const out = ["release", "deploy", version, ...m.flags];
  const took = first(m, "--time");
  if (took !== undefined) {
    const end = Math.floor(m.now / 1000);
    if (!first(m, "--finished")) out.push("--finished", String(end));
    if (!first(m, "--started")) out.push("--started", String(end - Number(took)));
  }
  return out;
}

/** sentry-cli's default extensions of an upload (it also takes React Native's bundles). */
const UPLOAD_EXTENSIONS = "js,cjs,mjs,map,jsbundle,bundle";

/** `sourcemap upload` with sentry-cli's extensions: its defaults, or the --ext values without dots. */
export function uploadArgv(paths: readonly string[], m: FormMatch, extra: readonly string[] = []): string[] {
  const ext = m.values.get("--ext");
  const flags = [...m.flags];
  const at = flags.indexOf("--ext");
  if (at >= 0) flags[at + 1] = (ext ?? []).map((e) => e.replace(/^\./, "")).join(",");
  else flags.push("--ext", UPLOAD_EXTENSIONS);
  return ["sourcemap", "upload", ...paths, ...extra, ...flags, ...ignoreFileFlags(m)];
}

/** sentry-cli's `--ignore-file` files as tracker's `--ignore <glob>` flags (inject and upload). */
export function ignoreFileFlags(m: FormMatch): string[] {
  const flags: string[] = [];
  for (const file of m.values.get("--ignore-file") ?? []) {
    for (const glob of ignoreFileGlobs(m.cwd, file)) flags.push("--ignore", glob);
  }
  return flags;
}

/** The release of a top-level `deploys` form (`--release`); an Error naming the form without one. */
export function release(m: FormMatch, name: string): string {
  const v = first(m, "--release") ?? m.params.version;
  if (v === undefined) throw new Error(`${name} needs --release`);
  return v;
}

/**
 * The jq program that makes `tracker auth status`'s document sentry-cli's `info
 * --config-status-json` ({config: {org, project, url}, auth: {type, successful}, have_dsn}); the
 * organization and project are the run's (-o/-p, TRACKER_*, SENTRY_*), else the stored defaults.
 */
export function configStatusJq(m: FormMatch): string {
  const pick = (names: readonly string[]) => {
    const value = names.map((n) => m.env[n] ?? m.outerEnv[n]).find((v) => v?.trim());
    return value === undefined ? "null" : JSON.stringify(value.trim());
  };
  const org = pick(["TRACKER_ORG", "SENTRY_ORG"]);
  const project = pick(["TRACKER_PROJECT", "SENTRY_PROJECT"]);
  return (
    `{config: {org: (${org} // .defaults.org), project: (${project} // .defaults.project), url: .baseUrl}, ` +
    `auth: {type: (if .token then "token" else null end), successful: (.authenticated and .serviceError == null)}, have_dsn: (.dsn != null)}`
  );
}

/**
 * sentry-cli's exit codes of `info`: 1 when it is not configured or the token is refused (a
 * missing or rejected login, an unreachable service: tracker's 10-13, 30, 31); with
 * `--config-status-json` the document is the answer and it exits 0 in those cases.
 */
export function infoExitCode(m: FormMatch, code: number): number {
  const notConfigured = (code >= 10 && code <= 13) || code === 30 || code === 31;
  if (!notConfigured) return code;
  return m.values.has("--config-status-json") ? 0 : 1;
}

/**
 * `releases set-commits`: build plugins send `--auto --ignore-missing` (and `--initial-depth`),
 * which only tracker's `--local` reads; with `--auto` alone they are left out instead of refused.
 */
export function setCommitsArgv(version: string, m: FormMatch): string[] {
  const flags = [...m.flags];
  if (m.values.has("--auto") && !m.values.has("--local")) {
    for (const [flag, width] of [
      ["--ignore-missing", 1],
      ["--initial-depth", 2],
    ] as const) {
      const at = flags.indexOf(flag);
      if (at >= 0) flags.splice(at, width);
    }
  }
  return ["release", "set-commits", version, ...flags];
}
