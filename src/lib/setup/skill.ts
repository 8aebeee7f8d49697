/**
 * Installs the agent skill file (skills/tracker-cli/SKILL.md, embedded in the binary) into the
 * CLI's own directory and into the skills directories agents read. Agent roots are only used when
 * they already exist and are writable: some sandboxes kill a process on a forbidden write, so we
 * check first and never create an agent's root ourselves.
 */
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import skillMarkdown from "../../../skills/tracker-cli/SKILL.md" with { type: "text" };
import { ensurePrivateDir } from "../private-dir.ts";
import { writeFileAtomic } from "./atomic.ts";

/** The skill file's content as compiled into this binary. */
export const SKILL_CONTENT: string = skillMarkdown;
/** Name of the skill (its directory name everywhere it is installed). */
export const SKILL_NAME = "tracker-cli";

/** One place the skill file goes. */
export interface SkillTarget {
  /** Who reads it: "tracker" (own copy), "claude", "agents". */
  label: string;
  /** Directory that must already exist (undefined: create as needed). */
  root: string | undefined;
  /** The skill's directory (`<root>/skills/tracker-cli`). */
  dir: string;
  /** A directory to create (or tighten) as private (0700) first: tracker's own config dir. */
  privateDir?: string;
}

/** Result for one target. */
export interface SkillResult {
  label: string;
  path: string;
  status: "installed" | "updated" | "unchanged" | "skipped" | "failed";
  reason?: string;
}

/** Where the skill file is installed: the CLI's config dir, ~/.claude and ~/.agents. */
export function skillTargets(homeDir: string, configDir: string, agents: boolean): SkillTarget[] {
  const targets: SkillTarget[] = [
    { label: "tracker", root: undefined, dir: join(configDir, "skills", SKILL_NAME), privateDir: configDir },
  ];
  if (agents) {
    for (const [label, root] of [
      ["claude", join(homeDir, ".claude")],
      ["agents", join(homeDir, ".agents")],
    ] as const) {
      targets.push({ label, root, dir: join(root, "skills", SKILL_NAME) });
    }
  }
  return targets;
}

function writableDir(path: string): boolean {
  try {
    if (!statSync(path).isDirectory()) return false;
    accessSync(path, constants.W_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Writes SKILL.md into each target; identical files are left alone, failures are reported, never thrown. */
export function installSkill(content: string, targets: readonly SkillTarget[]): SkillResult[] {
  return targets.map((t) => {
    const path = join(t.dir, "SKILL.md");
    if (t.root !== undefined) {
      if (!existsSync(t.root))
        return { label: t.label, path, status: "skipped", reason: `${t.root} does not exist` };
      if (!writableDir(t.root))
        return { label: t.label, path, status: "skipped", reason: `${t.root} is not writable` };
    }
    try {
      const existing = existsSync(path) ? readFileSync(path, "utf8") : undefined;
      // The config dir also holds the database: it is 0700 whatever the umask, also when setup makes it.
      if (t.privateDir !== undefined) ensurePrivateDir(t.privateDir);
      if (existing === content) return { label: t.label, path, status: "unchanged" };
      mkdirSync(t.dir, { recursive: true, mode: 0o755 });
      writeFileAtomic(path, content, 0o644);
      return { label: t.label, path, status: existing === undefined ? "installed" : "updated" };
    } catch (err) {
      return { label: t.label, path, status: "failed", reason: (err as Error).message };
    }
  });
}
