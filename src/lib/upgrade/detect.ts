/**
 * How was this binary installed? Cheap path rules first (a Homebrew Cellar, a global
 * node_modules), then the record `cli setup --method` left, then the install script's directory.
 * Nothing spawns a package manager.
 */
import { realpathSync } from "node:fs";
import { dirname } from "node:path";
import type { InstallInfo, InstallMethod } from "../db/install-info.ts";

/** What detection looks at. */
export interface DetectInput {
  /** Path of the running executable as started. */
  execPath: string;
  /** The install script's directory (TRACKER_INSTALL_DIR or ~/.tracker/bin). */
  installDir: string;
  /** The install_info record, if any. */
  stored: InstallInfo | undefined;
}

/** A detected method and the rule that found it (shown with --verbose). */
export interface Detected {
  method: InstallMethod;
  reason: string;
}

/** realpath, or the path itself when it cannot be resolved. */
export function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function hasSegment(path: string, segment: string): boolean {
  return path.split(/[\\/]/).includes(segment);
}

/** Detects the install method, or undefined when none of the rules match. */
export function detectInstallMethod(input: DetectInput): Detected | undefined {
  const real = realPath(input.execPath);
  // Checked before stored info, which a later `brew install` over a curl install leaves stale.
  if (hasSegment(real, "Cellar")) return { method: "brew", reason: `${real} is inside a Homebrew Cellar` };
  if (hasSegment(real, "node_modules")) {
    return { method: "npm", reason: `${real} is inside a node_modules directory` };
  }
  if (input.stored && realPath(input.stored.path) === real) {
    return {
      method: input.stored.method,
      reason: `recorded by \`tracker cli setup --method ${input.stored.method}\``,
    };
  }
  const installDir = realPath(input.installDir).replace(/[\\/]+$/, "");
  if (realPath(dirname(real)) === installDir) {
    return { method: "curl", reason: `${real} is in the install directory ${installDir}` };
  }
  return undefined;
}
