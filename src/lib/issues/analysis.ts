/**
 * Driving an AI-analysis run to the root cause or the fix plan: start or reuse a run, poll with
 * bounded backoff until the wanted part is there, and turn every failure into an AnalysisError.
 */
import type { TrackerContext } from "../../context.ts";
import { getAutofixState, startAutofix } from "../api/autofix.ts";
import { AnalysisError } from "../errors.ts";
import { type AnalysisView, readAnalysis } from "./analysis-payload.ts";

/** Polling: first wait, growth factor, cap and overall timeout (the reference polls 1 s for 6 min). */
export const POLL = { initialMs: 1_000, factor: 1.5, maxMs: 5_000, timeoutMs: 6 * 60_000 } as const;

/** Receives progress text while polling (the command shows it as a spinner on a TTY). */
export type ProgressSink = (text: string) => void;

/** Options of the analysis flows. */
export interface AnalysisOptions {
  force?: boolean;
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

async function poll(
  ctx: TrackerContext,
  org: string,
  issueId: string,
  issueLabel: string,
  done: (v: AnalysisView) => boolean,
  opts: AnalysisOptions,
): Promise<AnalysisView> {
  const timeoutMs = opts.timeoutMs ?? POLL.timeoutMs;
  const started = ctx.now();
  let delay: number = POLL.initialMs;
  for (;;) {
    const state = await getAutofixState(ctx, org, issueId);
    if (state) {
      const view = readAnalysis(state);
      if (view.progress) opts.onProgress?.(view.progress);
      if (done(view)) return view;
      if (["ERROR", "CANCELLED", "NEED_MORE_INFORMATION"].includes(view.status))
        throw failed(issueLabel, view);
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
  const state = opts.force ? null : await getAutofixState(ctx, org, issueId);
  const current = state ? readAnalysis(state) : undefined;
  if (current && hasRootCause(current)) return current;
  const restart = !current || ["ERROR", "CANCELLED", "NEED_MORE_INFORMATION"].includes(current.status);
  if (restart || (current.status !== "PROCESSING" && !hasRootCause(current))) {
    ctx.log.debug(`Starting AI analysis of ${issueLabel}`);
    await startAutofix(ctx, org, issueId, { stopping_point: "root_cause" });
  }
  return poll(ctx, org, issueId, issueLabel, hasRootCause, opts);
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
    if (rc.status !== "PROCESSING") {
      await startAutofix(
        ctx,
        org,
        issueId,
        rc.runId
          ? { run_id: /^\d+$/.test(rc.runId) ? Number(rc.runId) : rc.runId, step: "solution" }
          : { stopping_point: "solution" },
      );
    }
    view = await poll(ctx, org, issueId, issueLabel, hasSolution, opts);
  }
  if (!view.solution) {
    throw new AnalysisError(
      "failed",
      `The AI analysis of issue ${issueLabel} produced no fix plan: ${view.noSolutionReason ?? "no reason given"}.`,
    );
  }
  return view;
}
