/** The window and environments of one list run, read once and described the same way everywhere. */
import type { TrackerContext } from "../context.ts";
import { chosenEnvironments, environmentArgv, environmentKey, environmentToken } from "./environments.ts";
import type { FilterFlags } from "./filter-flags.ts";
import { type ResolvedWindow, resolveWindow } from "./time-window.ts";

/** A list run's window and environments. */
export interface ListFilters {
  readonly win: ResolvedWindow;
  readonly environments: readonly string[];
  /** The search token for endpoints without an `environment` parameter (`environment:[a,b]`). */
  readonly envToken?: string;
  /** Saved-cursor key parts: the window (always) and the environments (when any). */
  readonly key: { period: string; environment?: string };
  /** The flags that repeat the window and environments in a printed command (raw: nextPageCommand quotes them). */
  readonly argv: readonly string[];
  /** ` in production` / ` in production, staging`, or empty. */
  readonly envText: string;
}

/** Reads the window flags against now and chooses the environments (flag, else the stored default). */
export function readListFilters(ctx: TrackerContext, flags: FilterFlags, fallback: string): ListFilters {
  const win = resolveWindow(flags, fallback, ctx.now());
  const environments = chosenEnvironments(ctx, flags.environment);
  const envToken = environmentToken(environments);
  return {
    win,
    environments,
    ...(envToken === undefined ? {} : { envToken }),
    key: { period: win.key, ...environmentKey(environments) },
    argv: [...win.argv, ...environmentArgv(environments, flags.environment)],
    envText: environments.length > 0 ? ` in ${environments.join(", ")}` : "",
  };
}
