/**
 * Puts the install directory on PATH through the user's shell startup files (bash, zsh, fish) and,
 * in GitHub Actions, through $GITHUB_PATH. Each file gets one line, once; files are rewritten
 * atomically and never touched when the line is already there.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { basename, delimiter, dirname, join } from "node:path";
import { writeFileAtomic } from "./atomic.ts";

/** Shells whose startup files we edit. */
export const SHELLS = ["bash", "zsh", "fish"] as const;
/** One of SHELLS. */
export type Shell = (typeof SHELLS)[number];

/** Comment written above the PATH line so a person knows where it came from. */
export const RC_COMMENT = "# Added by tracker (tracker cli setup)";

/** What happened to one startup file. */
export interface RcChange {
  shell: Shell | "github";
  file: string;
  change: "created" | "added" | "unchanged";
}

/** Outcome of addToPath. */
export interface PathReport {
  dir: string;
  status: "skipped" | "already_on_path" | "updated" | "unchanged" | "no_shell";
  reason?: string;
  files: RcChange[];
}

function quoteDouble(dir: string): string {
  return `"${dir.replace(/(["\\$`])/g, "\\$1")}"`;
}

/** The line a shell's startup file needs to put `dir` first on PATH. */
export function pathLine(shell: Shell, dir: string): string {
  if (shell === "fish") return `set -gx PATH ${quoteDouble(dir)} $PATH`;
  return `export PATH=${quoteDouble(dir).slice(0, -1)}:$PATH"`;
}

/** The startup file a shell reads for interactive sessions. */
export function rcFile(shell: Shell, env: Record<string, string | undefined>, homeDir: string): string {
  switch (shell) {
    case "bash":
      return join(homeDir, ".bashrc");
    case "zsh":
      return join(env.ZDOTDIR?.trim() || homeDir, ".zshrc");
    case "fish":
      return join(env.XDG_CONFIG_HOME?.trim() || join(homeDir, ".config"), "fish", "config.fish");
  }
}

/** The user's login shell from $SHELL, when it is one we support. */
export function loginShell(env: Record<string, string | undefined>): Shell | undefined {
  const name = basename(env.SHELL?.trim() ?? "");
  return (SHELLS as readonly string[]).includes(name) ? (name as Shell) : undefined;
}

function appendLineOnce(file: string, line: string, comment: boolean): RcChange["change"] {
  const exists = existsSync(file);
  const current = exists ? readFileSync(file, "utf8") : "";
  if (current.split("\n").some((l) => l.trim() === line)) return "unchanged";
  const sep = current.length === 0 || current.endsWith("\n") ? "" : "\n";
  const block = comment ? `${current.length > 0 ? "\n" : ""}${RC_COMMENT}\n${line}\n` : `${line}\n`;
  if (!exists) mkdirSync(dirname(file), { recursive: true });
  writeFileAtomic(file, `${current}${sep}${block}`);
  return exists ? "added" : "created";
}

/**
 * Adds `dir` to PATH: the login shell's startup file is created if missing, other supported
 * shells' files are edited only when they exist. Nothing happens when `dir` is already on PATH.
 */
export function addToPath(env: Record<string, string | undefined>, homeDir: string, dir: string): PathReport {
  const files: RcChange[] = [];
  const github = env.GITHUB_ACTIONS === "true" ? env.GITHUB_PATH?.trim() : undefined;
  if (github) files.push({ shell: "github", file: github, change: appendLineOnce(github, dir, false) });
  const onPath = (env.PATH ?? "").split(delimiter).some((p) => p.replace(/\/+$/, "") === dir);
  if (onPath) {
    return { dir, status: "already_on_path", files };
  }
  const login = loginShell(env);
  for (const shell of SHELLS) {
    const file = rcFile(shell, env, homeDir);
    if (shell !== login && !existsSync(file)) continue;
    files.push({ shell, file, change: appendLineOnce(file, pathLine(shell, dir), true) });
  }
  if (files.length === 0) {
    return { dir, status: "no_shell", reason: "no bash, zsh or fish startup file found", files };
  }
  return { dir, status: files.some((f) => f.change !== "unchanged") ? "updated" : "unchanged", files };
}
