import { resolve } from "node:path";
import type { TrackerContext } from "../../context.ts";
import { findProjectRoot, isMarkedRoot } from "../../lib/dsn/root.ts";
import { ValidationError } from "../../lib/errors.ts";

/** Flags of `defaults set` and `defaults clear`. */
export interface HereFlags {
  readonly json: boolean;
  readonly verbose: boolean;
  /** For the project tree around the working directory only. */
  readonly here?: boolean;
}

/**
 * The project root `--here` applies to: the one DSN detection finds (nearest version-control
 * marker, else the outermost project marker). Outside any project there is none: ValidationError.
 */
export function hereRoot(ctx: TrackerContext): string {
  const root = findProjectRoot(ctx.cwd, ctx.homeDir);
  if (!isMarkedRoot(root) || root === resolve(ctx.homeDir)) {
    throw new ValidationError(
      `${ctx.cwd} is not inside a project (no .git or other project marker from here up); --here needs one. Run it in the project, or leave --here out for a default everywhere.`,
      "here",
    );
  }
  return root;
}
