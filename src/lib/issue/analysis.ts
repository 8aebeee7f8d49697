/**
 * Driving an AI-analysis run to the root cause or the fix plan: start or reuse a run, poll with
 * bounded backoff until the wanted part is there, and turn every failure into an AnalysisError.
 */
import type { TrackerContext } from "../../context.ts";
import { type AutofixStart, type AutofixState, getAutofixState, startAutofix } from "../api/autofix.ts";
import { AnalysisError, ApiError } from "../errors.ts";
import { type AnalysisView, readAnalysis } from "./analysis-payload.ts";

/** Polling: first wait, growth factor, cap and overall timeout (the reference polls 1 s for 6 min). */
export const POLL = { initialMs: 1_000, factor: 1.5, maxMs: 5_000, timeoutMs: 6 * 60_000 } as const;

/**
 * Consecutive polls an odd answer is tolerated before the run counts as broken: a finished run
 * without the wanted part (the service may flip to PROCESSING a moment after a start), a status
 * this version does not know, or no run at all after one was started.
 */
export const ODD_POLLS = 3;

/** Receives progress text while polling (the command shows it as a spinner on a TTY). */
export type ProgressSink = (text: string) => void;

/** Options of the analysis flows. */
export interface AnalysisOptions {
  force?: boolean;
  /** The state already fetched (together with the issue); undefined: ask for it first. */
  initialState?: AutofixState | null;
  timeoutMs?: number;
  onProgress?: ProgressSink;
}

function failed(issueLabel: string, view: AnalysisView): AnalysisError {
  const what =
    view.status === "NEED_MORE_INFORMATION"
      ? "stopped because it needs more information"
      : view.status === "CANCELLED"
        ? "was cancelled"
        : "failed";
  return new AnalysisError(
    "failed",
    `The AI analysis of issue ${issueLabel} ${what} (status ${view.status}). Run the command again with --force to start a new analysis.`,
  );
}

function broken(issueLabel: string, what: string): AnalysisError {
  return new AnalysisError(
    "failed",
    `The AI analysis of issue ${issueLabel} ${what}. Run the command again with --force to start a new analysis.`,
  );
}

/** A state the service sent in a 2xx answer that cannot be read is the analysis failing, not the API. */
async function readState(ctx: TrackerContext, org: string, issueId: string, issueLabel: string) {
  try {
    return await getAutofixState(ctx, org, issueId);
  } catch (err) {
    if (err instanceof ApiError && err.status >= 200 && err.status < 300) {
      throw broken(issueLabel, `answered with a state tracker cannot read (${err.detail ?? err.message})`);
    }
    throw err;
  }
}

/**
 * Polls until `done`, within the overall timeout whatever the service answers: failure statuses
 * end at once; a run replaced by another, and odd answers repeated ODD_POLLS times, end as
 * AnalysisError (exit 43) instead of polling on.
 */
async function poll(
  ctx: TrackerContext,
  org: string,
  issueId: string,
  issueLabel: string,
  done: (v: AnalysisView) => boolean,
  opts: AnalysisOptions & { runId?: string },
): Promise<AnalysisView> {
  const timeoutMs = opts.timeoutMs ?? POLL.timeoutMs;
  const started = ctx.now();
  let delay: number = POLL.initialMs;
  let runId = opts.runId;
  let odd = 0;
  for (;;) {
    const state = await readState(ctx, org, issueId, issueLabel);
    const view = state ? readAnalysis(state) : undefined;
    if (view) {
      if (view.progress) opts.onProgress?.(view.progress);
      if (done(view)) return view;
      if (["ERROR", "CANCELLED", "NEED_MORE_INFORMATION"].includes(view.status))
        throw failed(issueLabel, view);
      if (runId && view.runId && view.runId !== runId) {
        throw broken(
          issueLabel,
          `was replaced by another run (${view.runId}) while tracker waited for run ${runId}`,
        );
      }
      runId ??= view.runId;
    }
    const strange = !view || view.status === "UNKNOWN" || view.status === "COMPLETED";
    odd = strange ? odd + 1 : 0;
    if (odd >= ODD_POLLS) {
      throw broken(
        issueLabel,
        !view
          ? "has no run, although one was started"
          : view.status === "UNKNOWN"
            ? "reports a status tracker does not know"
            : "finished without the part that was asked for",
      );
    }
    if (ctx.now() - started + delay > timeoutMs) {
      throw new AnalysisError(
        "failed",
        `The AI analysis of issue ${issueLabel} did not finish within ${Math.round(timeoutMs / 1000)} s. It may still be running: run the command again later to pick up its result.`,
      );
    }
    await ctx.sleep(delay);
    delay = Math.min(POLL.maxMs, Math.round(delay * POLL.factor));
  }
}

const hasRootCause = (view: AnalysisView) => view.rootCause !== undefined;

const hasSolution = (view: AnalysisView) =>
  view.solution !== undefined || view.noSolutionReason !== undefined;

/**
 * Makes sure the issue has a root-cause analysis: reuses a finished or running one, starts a new
 * run when there is none, the last one failed, or `force` is set. The start is never retried.
 */
export async function ensureRootCause(
  ctx: TrackerContext,
  org: string,
  issueId: string,
  issueLabel: string,
  opts: AnalysisOptions,
): Promise<AnalysisView> {
  const state = opts.force
    ? null
    : opts.initialState !== undefined
      ? opts.initialState
      : await getAutofixState(ctx, org, issueId);
  const current = state ? readAnalysis(state) : undefined;
  if (current && hasRootCause(current)) return current;
  const restart = !current || ["ERROR", "CANCELLED", "NEED_MORE_INFORMATION"].includes(current.status);
  let runId = current?.runId;
  let sentryRunId = current?.sentryRunId;
  if (restart || (current.status !== "PROCESSING" && !hasRootCause(current))) {
    ctx.log.debug(`Starting AI analysis of ${issueLabel}`);
    ({ runId, sentryRunId } = await startAutofix(ctx, org, issueId, { stopping_point: "root_cause" }));
  }
  const view = await poll(ctx, org, issueId, issueLabel, hasRootCause, { ...opts, runId });
  // The state may not repeat the run's UUID; the start's answer gave it.
  if (!view.sentryRunId && sentryRunId && (!view.runId || !runId || view.runId === runId))
    view.sentryRunId = sentryRunId;
  return view;
}

/** How to name the run to continue: its UUID when known, else the deprecated numeric id. */
function continueRun(view: AnalysisView): AutofixStart {
  if (view.sentryRunId) return { sentry_run_id: view.sentryRunId, step: "solution" };
  if (view.runId)
    return { run_id: /^\d+$/.test(view.runId) ? Number(view.runId) : view.runId, step: "solution" };
  return { stopping_point: "solution" };
}

/** Makes sure the issue has a fix plan: the root cause first, then the solution step of the same run. */
export async function ensureSolution(
  ctx: TrackerContext,
  org: string,
  issueId: string,
  issueLabel: string,
  opts: AnalysisOptions,
): Promise<AnalysisView> {
  const rc = await ensureRootCause(ctx, org, issueId, issueLabel, opts);
  let view = rc;
  if (!hasSolution(rc)) {
    let runId = rc.runId;
    if (rc.status !== "PROCESSING") {
      runId = (await startAutofix(ctx, org, issueId, continueRun(rc))).runId ?? runId;
    }
    view = await poll(ctx, org, issueId, issueLabel, hasSolution, { ...opts, runId });
  }
  if (!view.solution) {
    throw new AnalysisError(
      "failed",
      `The AI analysis of issue ${issueLabel} produced no fix plan: ${view.noSolutionReason ?? "no reason given"}.`,
    );
  }
  return view;
}
