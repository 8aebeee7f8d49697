/**
 * AI analysis endpoints (API.md section 6): read the state, start or continue a run. Refusals
 * (402, the Seer 403 texts) become AnalysisErrors with the organization's settings URL.
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { AnalysisError, ApiError } from "../errors.ts";
import { apiRequest } from "../http/client.ts";

/** Timeout of autofix calls (the reference allows them 120 s; they can be slow). */
export const AUTOFIX_TIMEOUT_MS = 120_000;

const Step = v.looseObject({
  key: v.optional(v.nullable(v.string())),
  status: v.optional(v.nullable(v.string())),
  title: v.optional(v.nullable(v.string())),
});

/** The raw state of a run; both payload generations pass (step-based `steps`, agent-based `blocks`). */
export const AutofixState = v.looseObject({
  run_id: v.optional(v.nullable(v.union([v.number(), v.string()]))),
  sentry_run_id: v.optional(v.nullable(v.string())),
  status: v.optional(v.nullable(v.string())),
  steps: v.optional(v.nullable(v.array(Step))),
  blocks: v.optional(v.nullable(v.array(v.looseObject({})))),
});
/** A validated raw state. */
export type AutofixState = v.InferOutput<typeof AutofixState>;

const StateResponse = v.looseObject({ autofix: v.nullable(AutofixState) });
/** The published answer carries the deprecated numeric `run_id` and the run's UUID `sentry_run_id`. */
const StartResponse = v.looseObject({
  run_id: v.optional(v.nullable(v.union([v.number(), v.string()]))),
  sentry_run_id: v.optional(v.nullable(v.string())),
});

/** The identifiers of a started run. */
export interface StartedRun {
  runId: string | undefined;
  sentryRunId: string | undefined;
}

function settingsUrl(ctx: TrackerContext, org: string, suffix: string): string {
  return `${ctx.settings.baseUrl.replace(/\/+$/, "")}/settings/${encodeURIComponent(org)}/${suffix}`;
}

/** Turns the service's "AI not available" answers into AnalysisErrors; other errors pass through. */
export function analysisErrorFor(ctx: TrackerContext, org: string, err: unknown): unknown {
  if (!(err instanceof ApiError)) return err;
  const text = (err.detail ?? "").toLowerCase();
  if (err.status === 402) {
    return new AnalysisError(
      "no_budget",
      `AI analysis requires a paid plan for organization '${org}' (${err.detail ?? "no budget"}). Review the plan:`,
      settingsUrl(ctx, org, "billing/overview/?product=seer"),
    );
  }
  if (err.status !== 403) return err;
  if (text.includes("ai features")) {
    return new AnalysisError(
      "ai_disabled",
      `AI features are disabled in the settings of organization '${org}'. An owner can turn off "Hide AI Features" here:`,
      settingsUrl(ctx, org, "#hideAiFeatures"),
    );
  }
  if (text.includes("not enabled") || text.includes("not been enabled") || text.includes("acknowledged")) {
    return new AnalysisError(
      "not_enabled",
      `AI analysis is not enabled for organization '${org}' (${err.detail}). Enable it here:`,
      settingsUrl(ctx, org, "seer/"),
    );
  }
  return err;
}

/** The current analysis state of an issue, or null when none was ever started. */
export async function getAutofixState(
  ctx: TrackerContext,
  org: string,
  issueId: string,
): Promise<AutofixState | null> {
  try {
    const res = await apiRequest(ctx, {
      path: `/api/0/organizations/${encodeURIComponent(org)}/issues/${encodeURIComponent(issueId)}/autofix/`,
      host: { org },
      timeoutMs: AUTOFIX_TIMEOUT_MS,
      schema: StateResponse,
    });
    return res.data.autofix;
  } catch (err) {
    throw analysisErrorFor(ctx, org, err);
  }
}

/** Body of a start/continue request (API.md 6.1). */
export interface AutofixStart {
  stopping_point?: "root_cause" | "solution";
  step?: "root_cause" | "solution";
  /** The run to continue: its UUID, preferred by current servers. */
  sentry_run_id?: string;
  /** The run to continue, deprecated form (sent only when the UUID is not known). */
  run_id?: number | string;
}

/** Starts (or continues) a run; never retried, because a repeat could start a second billable run. */
export async function startAutofix(
  ctx: TrackerContext,
  org: string,
  issueId: string,
  body: AutofixStart,
): Promise<StartedRun> {
  try {
    const res = await apiRequest(ctx, {
      method: "POST",
      path: `/api/0/organizations/${encodeURIComponent(org)}/issues/${encodeURIComponent(issueId)}/autofix/`,
      host: { org },
      json: { ...body, referrer: "api.cli" },
      retry: false,
      timeoutMs: AUTOFIX_TIMEOUT_MS,
      schema: StartResponse,
    });
    const { run_id, sentry_run_id } = res.data;
    return {
      runId: run_id == null ? undefined : String(run_id),
      sentryRunId: sentry_run_id ?? undefined,
    };
  } catch (err) {
    throw analysisErrorFor(ctx, org, err);
  }
}
