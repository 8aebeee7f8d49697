/** The steps of `tracker cli setup`, independent of Stricli so upgrade and tests can run them. */
import type { TrackerContext } from "../../context.ts";
import { detectInstallMethod } from "../upgrade/detect.ts";
import { removeStaleOldBinary } from "../upgrade/swap.ts";
import { VERSION } from "../version.ts";
import { type InstallMethod, writeInstallInfo } from "../db/install-info.ts";
import type { SentryCliLink } from "./sentry-cli-link.ts";
import { addToPath, type PathReport } from "./shell-path.ts";
import { installSkill, SKILL_CONTENT, type SkillResult, skillTargets } from "./skill.ts";

/** Inputs of runSetup. */
export interface SetupOptions {
  /** The installed binary. */
  binaryPath: string;
  /** Directory to put on PATH (the binary's directory). */
  installDir: string;
  modifyPath: boolean;
  agentSkills: boolean;
  method: InstallMethod | undefined;
  /** False when running from source (bun src/bin.ts): the "binary" is then Bun itself. */
  compiled: boolean;
  /** Skill text to install (default: the copy embedded in this binary). */
  skillContent?: string;
}

/** Everything setup did, for humans and for --json. */
export interface SetupReport {
  binary: string;
  version: string;
  path: PathReport;
  skills: SkillResult[];
  method: InstallMethod | null;
  /** `--sentry-cli-link`: the link made (lib/setup/sentry-cli-link.ts). */
  sentryCliLink?: SentryCliLink;
}

/** Runs setup: PATH edits (unless disabled or managed by a package manager), skill files, install record. */
export function runSetup(ctx: TrackerContext, opts: SetupOptions): SetupReport {
  if (process.platform === "win32") removeStaleOldBinary(opts.binaryPath);
  // A binary inside a Cellar or node_modules is on PATH through its package manager's bin dir,
  // even when setup is run by hand without --method.
  const managedBy =
    opts.method ??
    detectInstallMethod({ execPath: opts.binaryPath, installDir: "", stored: undefined })?.method;
  let path: PathReport;
  if (!opts.compiled) {
    path = {
      dir: opts.installDir,
      status: "skipped",
      reason: "running from source, not an installed binary",
      files: [],
    };
  } else if (!opts.modifyPath) {
    path = { dir: opts.installDir, status: "skipped", reason: "--no-modify-path", files: [] };
  } else if (managedBy === "npm" || managedBy === "brew") {
    path = {
      dir: opts.installDir,
      status: "skipped",
      reason: `${managedBy} puts tracker on PATH itself`,
      files: [],
    };
  } else {
    path = addToPath(ctx.env, ctx.homeDir, opts.installDir);
  }
  const skills = installSkill(
    opts.skillContent ?? SKILL_CONTENT,
    skillTargets(ctx.homeDir, ctx.configDir, opts.agentSkills),
  );
  for (const s of skills) {
    if (s.status === "failed") ctx.log.warn(`Could not install the skill file at ${s.path}: ${s.reason}`);
  }
  const method = opts.compiled ? opts.method : undefined;
  if (opts.method && !method)
    ctx.log.warn("Not recording an install method: tracker is running from source.");
  if (method) writeInstallInfo(ctx, { method, path: opts.binaryPath, version: VERSION });
  return { binary: opts.binaryPath, version: VERSION, path, skills, method: method ?? null };
}
