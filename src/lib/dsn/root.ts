/** Finding the project root: the directory DSN detection may scan, never above. */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** Version-control markers: the nearest one ends the walk (a repository is the project). */
export const VCS_MARKERS = [".git", ".hg", ".svn", ".jj", ".bzr", "_darcs", ".fslckout"] as const;

/** Language, build and workspace markers; without VCS the outermost directory carrying one is the root. */
export const PROJECT_MARKERS = [
  "package.json",
  "pnpm-workspace.yaml",
  "lerna.json",
  "nx.json",
  "turbo.json",
  "deno.json",
  "pyproject.toml",
  "setup.py",
  "setup.cfg",
  "Pipfile",
  "requirements.txt",
  "go.mod",
  "go.work",
  "pom.xml",
  "build.gradle",
  "build.gradle.kts",
  "settings.gradle",
  "settings.gradle.kts",
  "Gemfile",
  "composer.json",
  "Cargo.toml",
] as const;

/**
 * The project root for `start`: the nearest ancestor (or itself) with a VCS marker; otherwise the
 * outermost ancestor with a project marker; otherwise `start`. The home directory and anything
 * above it are never a root (a stray `~/package.json` must not make the whole home scanned).
 */
export function findProjectRoot(start: string, homeDir: string): string {
  const home = resolve(homeDir);
  let dir = resolve(start);
  let outermostMarker: string | undefined;
  for (;;) {
    if (dir === home) break;
    if (VCS_MARKERS.some((m) => existsSync(join(dir, m)))) return dir;
    if (PROJECT_MARKERS.some((m) => existsSync(join(dir, m)))) outermostMarker = dir;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return outermostMarker ?? resolve(start);
}

/** Directories from `start` up to `root`, both included (start first); just `[start]` if root is not an ancestor. */
export function ancestorChain(start: string, root: string): string[] {
  const out: string[] = [];
  let dir = resolve(start);
  const top = resolve(root);
  for (;;) {
    out.push(dir);
    if (dir === top) return out;
    const parent = dirname(dir);
    if (parent === dir) return [resolve(start)];
    dir = parent;
  }
}

/** True when `dir` carries a version-control or project marker (it is a project root). */
export function isMarkedRoot(dir: string): boolean {
  return [...VCS_MARKERS, ...PROJECT_MARKERS].some((m) => existsSync(join(dir, m)));
}
