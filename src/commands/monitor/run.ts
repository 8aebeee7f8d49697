import type { TrackerContext } from "../../context.ts";
import { dsnForSend } from "../../lib/envelope/dsn.ts";
import { envelopeUrl } from "../../lib/envelope/send.ts";
import type { Dsn } from "../../lib/dsn/parse.ts";
import { ContextError, ValidationError } from "../../lib/errors.ts";
import { dsnByToken, hasToken } from "../../lib/monitors/dsn-by-token.ts";
import { JobExitError } from "../../lib/monitors/child.ts";
import { monitorConfig, runMonitored } from "../../lib/monitors/run.ts";
import type { MonitorRunFlags } from "./index.ts";

const SLUG_RE = /^[a-z0-9][a-z0-9_-]{0,49}$/i;

/**
 * The DSN of the check-ins: TRACKER_DSN/SENTRY_DSN or the project's; else, with a token, the
 * target project's DSN looked up beside the job; else the error naming where a DSN is looked up.
 */
async function monitorDsn(ctx: TrackerContext, command: string): Promise<Dsn | Promise<Dsn>> {
  try {
    const { dsn } = dsnForSend(ctx, command);
    envelopeUrl(dsn);
    return dsn;
  } catch (err) {
    if (!(err instanceof ContextError) || !(await hasToken(ctx))) throw err;
    const { lookup } = await dsnByToken(ctx, "tracker monitor run <slug> <org>/<project>");
    // Checked when the check-in is sent; a refused DSN there is one warning, never the job's failure.
    lookup.catch(() => undefined);
    return lookup.then((d) => {
      envelopeUrl(d);
      return d;
    });
  }
}

/**
 * `tracker monitor run <slug> -- <command…>`: check the flags and the DSN before anything runs,
 * then run the job between its check-ins and exit with its code (JobExitError when not 0).
 */
export default async function monitorRun(
  this: TrackerContext,
  flags: MonitorRunFlags,
  ...words: string[]
): Promise<void> {
  const [slug, ...command] = words;
  if (!slug || !SLUG_RE.test(slug)) {
    throw new ValidationError(
      `Invalid monitor slug '${slug ?? ""}': letters, digits, - and _ (up to 50).`,
      "slug",
    );
  }
  if (command.length === 0) {
    throw new ValidationError(
      "Name the command after --: tracker monitor run <slug> -- <command>",
      "command",
    );
  }
  if (flags.schedule !== undefined && flags.interval !== undefined) {
    throw new ValidationError("Use --schedule or --interval, not both.", "schedule");
  }
  const config = monitorConfig(flags);
  const tuning =
    flags.checkInMargin ??
    flags.maxRuntime ??
    flags.timezone ??
    flags.failureIssueThreshold ??
    flags.recoveryThreshold;
  if (!config && tuning !== undefined) {
    throw new ValidationError(
      "--check-in-margin, --max-runtime, --timezone and the thresholds go with --schedule or --interval.",
      "schedule",
    );
  }
  const dsn = await monitorDsn(this, `tracker monitor run ${slug} -- …`);
  const outcome = await runMonitored(this, { dsn, slug, environment: flags.env, config, command });
  if (outcome.code !== 0) throw new JobExitError(outcome);
}
