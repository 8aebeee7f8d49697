/**
 * A DSN by token: without a DSN in the environment, the configuration or the project, the sends by
 * DSN (`event send`, `monitor run`'s check-ins) use the DSN of the target project's first active
 * client key, asked with the token (one request).
 */
import type { TrackerContext } from "../../context.ts";
import { listProjectKeys, primaryDsn } from "../api/projects.ts";
import { type Dsn, parseDsn } from "../dsn/parse.ts";
import { ContextError } from "../errors.ts";
import { resolveOrgProject } from "../resolve/target.ts";
import { DSN_LOOKUP_HELP } from "./dsn.ts";

/** No DSN, and no project whose DSN the token could ask for. */
export class NoProjectForDsn extends ContextError {}

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
 * The DSN of the context's project (TRACKER_ORG/TRACKER_PROJECT, defaults, configuration files,
 * the org token's organization): the target is resolved first, then its keys are asked.
 */
export async function dsnByToken(ctx: TrackerContext, command: string): Promise<Dsn> {
  const { org, project } = await resolveOrgProject(ctx, undefined, { command }).catch((err) => {
    if (!(err instanceof ContextError)) throw err;
    // The command takes no target argument: say how to name the project where it is run.
    throw new NoProjectForDsn(
      "A DSN",
      `No DSN was found, and no project to ask one for with the token. Name the project:\n  TRACKER_ORG=<org> TRACKER_PROJECT=<project> ${command}`,
      ["or set TRACKER_DSN (or SENTRY_DSN), or [auth] dsn in .sentryclirc", ...DSN_LOOKUP_HELP.slice(0, 2)],
    );
  });
  const keys = await listProjectKeys(ctx, org, project);
  const dsn = parseDsn(primaryDsn(keys) ?? "");
  if (!dsn) throw new ContextError("A DSN", `Project ${org}/${project} has no active client key with a DSN.`);
  ctx.log.debug(`Sending with the DSN of ${org}/${project} (asked with the token)`);
  return dsn;
}
