/**
 * `monitor run`: check-ins by envelope around a job (API.md §18.4). The job starts at once (the
 * `in_progress` check-in is sent alongside it, not awaited first), and whatever the service does,
 * the check-ins add at most CHECK_IN_BUDGET_MS to the job's wall time; a failure is one warning.
 */
import type { TrackerContext } from "../../context.ts";
import { childEnv } from "../child-env.ts";
import type { Dsn } from "../dsn/parse.ts";
import { buildEnvelope, newId, sendEnvelope } from "../envelope/send.ts";
import { formatError } from "../error-render.ts";
import { CliError } from "../errors.ts";
import { type ChildOutcome, runChild } from "./child.ts";
import type { Interval } from "./schedule.ts";

/** Most time the check-ins may add to the job's wall time, after it ends. */
export const CHECK_IN_BUDGET_MS = 3_000;
/** Longest the `in_progress` check-in may take while the job runs. */
export const OPEN_CHECK_IN_TIMEOUT_MS = 10_000;
/** Of the budget, what waiting for a still-pending `in_progress` may use; the rest is the closing one's. */
export const OPEN_WAIT_AFTER_EXIT_MS = 1_000;

/** Why a job runs without check-ins (no usable DSN): said once as a warning, never the job's failure. */
export class NoCheckIns extends CliError {
  constructor(why: string) {
    super(why);
    this.name = "NoCheckIns";
  }
}

/** `monitor_config` of a check-in (upserts the monitor); minutes for margin and runtime. */
export interface MonitorConfig {
  schedule: { type: "crontab"; value: string } | { type: "interval"; value: number; unit: string };
  checkin_margin?: number;
  max_runtime?: number;
  timezone?: string;
  failure_issue_threshold?: number;
  recovery_threshold?: number;
}

/** The flags that make a monitor_config; undefined without --schedule/--interval. */
export function monitorConfig(opts: {
  schedule?: string;
  interval?: Interval;
  checkInMargin?: number;
  maxRuntime?: number;
  timezone?: string;
  failureIssueThreshold?: number;
  recoveryThreshold?: number;
}): MonitorConfig | undefined {
  const schedule = opts.schedule
    ? { type: "crontab" as const, value: opts.schedule }
    : opts.interval
      ? { type: "interval" as const, value: opts.interval.value, unit: opts.interval.unit }
      : undefined;
  if (!schedule) return undefined;
  return {
    schedule,
    ...(opts.checkInMargin !== undefined ? { checkin_margin: opts.checkInMargin } : {}),
    ...(opts.maxRuntime !== undefined ? { max_runtime: opts.maxRuntime } : {}),
    ...(opts.timezone !== undefined ? { timezone: opts.timezone } : {}),
    ...(opts.failureIssueThreshold !== undefined
      ? { failure_issue_threshold: opts.failureIssueThreshold }
      : {}),
    ...(opts.recoveryThreshold !== undefined ? { recovery_threshold: opts.recoveryThreshold } : {}),
  };
}

/** What to run and how to report it. */
export interface MonitoredJob {
  /** The DSN, or its lookup by token (awaited by each check-in, never by the job). */
  dsn: Dsn | Promise<Dsn>;
  slug: string;
  environment?: string;
  config?: MonitorConfig;
  command: readonly string[];
}

/** Runs the job between its two check-ins and returns how it ended (never throws for the service). */
export async function runMonitored(ctx: TrackerContext, job: MonitoredJob): Promise<ChildOutcome> {
  const checkInId = newId();
  const warnOnce = (which: string, err: unknown) => {
    if (ctx.said.has("monitor-check-in")) return;
    ctx.said.add("monitor-check-in");
    if (err instanceof NoCheckIns) {
      ctx.log.warn(`No check-ins for ${job.slug}: ${err.message}. The job runs without them.`);
      return;
    }
    const why = formatError(err).split("\n")[0];
    ctx.log.warn(`The ${which} check-in of ${job.slug} was not sent (${why}); the job is not affected.`);
  };
  const send = (payload: Record<string, unknown>, timeoutMs: number, signal?: AbortSignal) => {
    const body = buildEnvelope({ sent_at: new Date(ctx.now()).toISOString() }, [
      {
        type: "check_in",
        payload: {
          check_in_id: checkInId,
          monitor_slug: job.slug,
          ...payload,
          ...(job.environment ? { environment: job.environment } : {}),
          ...(job.config ? { monitor_config: job.config } : {}),
        },
      },
    ]);
    return Promise.resolve(job.dsn).then((dsn) => sendEnvelope(ctx, dsn, body, { timeoutMs, signal }));
  };
  const openAbort = new AbortController();
  let openSettled = false;
  const opening = send({ status: "in_progress" }, OPEN_CHECK_IN_TIMEOUT_MS, openAbort.signal).then(
    () => {
      openSettled = true;
    },
    (err) => {
      openSettled = true;
      warnOnce("in_progress", err);
    },
  );
  const started = performance.now();
  const env = { ...childEnv(ctx.env), SENTRY_MONITOR_SLUG: job.slug };
  const outcome = await runChild(job.command, { cwd: ctx.cwd, env });
  const ended = performance.now();
  const deadline = ended + CHECK_IN_BUDGET_MS;
  if (!openSettled) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      opening,
      new Promise<void>((r) => {
        timer = setTimeout(r, OPEN_WAIT_AFTER_EXIT_MS);
      }),
    ]);
    clearTimeout(timer);
    openAbort.abort();
    await opening;
  }
  const status = outcome.code === 0 ? "ok" : "error";
  const left = Math.max(1, Math.floor(deadline - performance.now()));
  try {
    await send({ status, duration: (ended - started) / 1000 }, left);
  } catch (err) {
    warnOnce(status, err);
  }
  return outcome;
}
