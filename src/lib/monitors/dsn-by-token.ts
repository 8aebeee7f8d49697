/**
 * `monitor run` by token: without a DSN in the environment or the project, the check-ins use the
 * DSN of the target project's first active client key, asked with the token (one request). The
 * job does not wait for it: the lookup runs beside the job like the check-ins it feeds.
 */
import type { TrackerContext } from "../../context.ts";
import { listProjectKeys, primaryDsn } from "../api/projects.ts";
import { type Dsn, parseDsn } from "../dsn/parse.ts";
import { ContextError } from "../errors.ts";
import { resolveOrgProject } from "../resolve/target.ts";

/** True when a token would be sent (environment, stored login or a config file). */
export async function hasToken(ctx: TrackerContext): Promise<boolean> {
  try {
    await ctx.tokens.current(ctx);
    return true;
  } catch {
    return false;
  }
}

/**
 * The target's DSN, to be awaited by the check-ins. The target is resolved first (no request when it
 * comes from TRACKER_ORG/TRACKER_PROJECT or defaults); the key lookup is the promise.
 */
export async function dsnByToken(ctx: TrackerContext, command: string): Promise<{ lookup: Promise<Dsn> }> {
  const { org, project } = await resolveOrgProject(ctx, undefined, { command });
  // Wrapped: an async function's returned promise would be awaited with it.
  const lookup = listProjectKeys(ctx, org, project).then((keys) => {
    const dsn = parseDsn(primaryDsn(keys) ?? "");
    if (!dsn)
      throw new ContextError("A DSN", `Project ${org}/${project} has no active client key with a DSN.`);
    return dsn;
  });
  return { lookup };
}
