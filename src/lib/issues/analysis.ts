/**
 * Reading AI-analysis state (both payload generations, API.md 6.2), driving a run to the root
 * cause or the fix plan with bounded polling, and mapping the result to the spec's JSON (6.5).
 */
import * as v from "valibot";
import type { TrackerContext } from "../../context.ts";
import { type AutofixState, getAutofixState, startAutofix } from "../api/autofix.ts";
import { AnalysisError } from "../errors.ts";

/** Normalised run status (API.md 6.3). */
export type RunStatus =
  | "PROCESSING"
  | "COMPLETED"
  | "WAITING_FOR_USER_RESPONSE"
  | "NEED_MORE_INFORMATION"
  | "ERROR"
  | "CANCELLED";

/** One explained or planned step. */
export interface AnalysisStep {
  title: string;
  detail: string;
  file: string;
  important: boolean;
}

/** What a state says, independent of its payload generation. */
export interface AnalysisView {
  runId: string | undefined;
  status: RunStatus;
  /** Latest progress text, for the spinner. */
  progress: string | undefined;
  rootCause?: { summary: string; steps: AnalysisStep[]; repo: string };
  solution?: { summary: string; steps: AnalysisStep[] };
  /** Set when the service finished without a fix and said why. */
  noSolutionReason?: string;
  /** A step's `output_confidence_score` (0..1) when the service gave one. */
  confidence: number | null;
}

/** Polling: first wait, growth factor, cap and overall timeout (the reference polls 1 s for 6 min). */
export const POLL = { initialMs: 1_000, factor: 1.5, maxMs: 5_000, timeoutMs: 6 * 60_000 } as const;

const File = v.looseObject({ file_path: v.optional(v.nullable(v.string())) });
/** Fields shared by root-cause reproduction steps and solution steps. */
const CODE_STEP = {
  title: v.optional(v.nullable(v.string())),
  code_snippet_and_analysis: v.optional(v.nullable(v.string())),
  relevant_code_file: v.optional(v.nullable(File)),
};
const Repro = v.looseObject({ ...CODE_STEP, is_most_important_event: v.optional(v.nullable(v.boolean())) });
const Cause = v.looseObject({
  description: v.optional(v.nullable(v.string())),
  root_cause_reproduction: v.optional(v.nullable(v.array(Repro))),
  relevant_repos: v.optional(v.nullable(v.array(v.string()))),
});
const SolutionItem = v.looseObject({ ...CODE_STEP, is_active: v.optional(v.nullable(v.boolean())) });
const StepLike = v.looseObject({
  key: v.optional(v.nullable(v.string())),
  status: v.optional(v.nullable(v.string())),
  causes: v.optional(v.nullable(v.array(Cause))),
  description: v.optional(v.nullable(v.string())),
  solution: v.optional(v.nullable(v.array(SolutionItem))),
  progress: v.optional(v.nullable(v.array(v.looseObject({ message: v.optional(v.nullable(v.string())) })))),
  output_confidence_score: v.optional(v.nullable(v.number())),
  artifacts: v.optional(v.nullable(v.array(v.unknown()))),
});
const Artifact = v.looseObject({
  key: v.string(),
  data: v.optional(v.unknown()),
  reason: v.optional(v.nullable(v.string())),
});
const RootCauseData = v.looseObject({
  one_line_description: v.optional(v.nullable(v.string())),
  five_whys: v.optional(v.nullable(v.array(v.string()))),
  reproduction_steps: v.optional(v.nullable(v.array(v.string()))),
  relevant_repo: v.optional(v.nullable(v.string())),
});
const SolutionData = v.looseObject({
  one_line_summary: v.optional(v.nullable(v.string())),
  steps: v.optional(
    v.nullable(
      v.array(
        v.looseObject({
          title: v.optional(v.nullable(v.string())),
          description: v.optional(v.nullable(v.string())),
        }),
      ),
    ),
  ),
});

/** Upper-cases and unifies the status spellings of both generations. */
export function normaliseStatus(raw: string | null | undefined): RunStatus {
  const s = (raw ?? "").toUpperCase();
  if (s === "AWAITING_USER_INPUT") return "WAITING_FOR_USER_RESPONSE";
  if (s === "CANCELED") return "CANCELLED";
  const known: RunStatus[] = [
    "PROCESSING",
    "COMPLETED",
    "WAITING_FOR_USER_RESPONSE",
    "NEED_MORE_INFORMATION",
    "ERROR",
    "CANCELLED",
  ];
  return (known as string[]).includes(s) ? (s as RunStatus) : "PROCESSING";
}

const FILE_LINE_RE = /([\w./-]+\.[A-Za-z0-9]+):(\d+)/;

function applyArtifact(view: AnalysisView, raw: unknown): void {
  const a = v.safeParse(Artifact, raw);
  if (!a.success) return;
  if (a.output.key === "root_cause" && !view.rootCause) {
    const d = v.safeParse(RootCauseData, a.output.data);
    if (!d.success) return;
    const whys = d.output.five_whys ?? [];
    const repro = d.output.reproduction_steps ?? [];
    view.rootCause = {
      summary: d.output.one_line_description ?? "",
      steps: [
        ...whys.map((w, i) => ({
          title: `Why ${i + 1}`,
          detail: w,
          file: FILE_LINE_RE.exec(w)?.[1] ?? "",
          important: false,
        })),
        ...repro.map((r, i) => ({ title: `Reproduction ${i + 1}`, detail: r, file: "", important: false })),
      ],
      repo: d.output.relevant_repo ?? "",
    };
  } else if (a.output.key === "solution" && !view.solution) {
    if (a.output.data === null || a.output.data === undefined) {
      if (a.output.reason) view.noSolutionReason = a.output.reason;
      return;
    }
    const d = v.safeParse(SolutionData, a.output.data);
    if (!d.success) return;
    view.solution = {
      summary: d.output.one_line_summary ?? "",
      steps: (d.output.steps ?? []).map((s) => ({
        title: s.title ?? "",
        detail: s.description ?? "",
        file: FILE_LINE_RE.exec(s.description ?? "")?.[1] ?? "",
        important: false,
      })),
    };
  }
}

function applyStep(view: AnalysisView, raw: unknown): void {
  const r = v.safeParse(StepLike, raw);
  if (!r.success) return;
  const s = r.output;
  for (const p of s.progress ?? []) if (p.message) view.progress = p.message;
  if (s.key === "root_cause_analysis" && s.causes && s.causes.length > 0 && !view.rootCause) {
    const cause = s.causes[0] as v.InferOutput<typeof Cause>;
    view.rootCause = {
      summary: cause.description ?? "",
      steps: (cause.root_cause_reproduction ?? []).map((x) => ({
        title: x.title ?? "",
        detail: x.code_snippet_and_analysis ?? "",
        file: x.relevant_code_file?.file_path ?? "",
        important: x.is_most_important_event ?? false,
      })),
      repo: cause.relevant_repos?.[0] ?? "",
    };
    if (s.output_confidence_score != null && view.confidence === null)
      view.confidence = s.output_confidence_score;
  }
  if (s.key === "solution" && s.solution && s.solution.length > 0 && !view.solution) {
    view.solution = {
      summary: s.description ?? "",
      steps: s.solution
        .filter((x) => x.is_active !== false)
        .map((x) => ({
          title: x.title ?? "",
          detail: x.code_snippet_and_analysis ?? "",
          file: x.relevant_code_file?.file_path ?? "",
          important: false,
        })),
    };
    // The solution's own score is the better signal for a plan; it replaces the root cause's.
    if (s.output_confidence_score != null) view.confidence = s.output_confidence_score;
  }
  for (const art of s.artifacts ?? []) applyArtifact(view, art);
}

/** Reads a raw state of either generation: agent blocks first, then steps. */
export function readAnalysis(state: AutofixState): AnalysisView {
  const view: AnalysisView = {
    runId: state.run_id == null ? undefined : String(state.run_id),
    status: normaliseStatus(state.status),
    progress: undefined,
    confidence: null,
  };
  for (const block of state.blocks ?? []) {
    applyStep(view, block);
    const msg = (block as { message?: { content?: unknown } }).message?.content;
    if (typeof msg === "string" && msg) view.progress = msg;
  }
  for (const step of state.steps ?? []) applyStep(view, step);
  if (view.solution) view.noSolutionReason = undefined;
  return view;
}

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

/** The spec's `issue explain` JSON. */
export interface ExplainJson {
  issueId: string;
  analysis: { summary: string; rootCause: string; suggestedFix: string; affectedCode: string };
}

/** The spec's `issue plan` JSON. */
export interface PlanJson {
  issueId: string;
  plan: {
    steps: { step: number; action: string; code: string; file: string; line: number }[];
    confidence: number;
  };
}

/** Maps a root-cause view to the explain shape (API.md 6.5). */
export function toExplainJson(issueId: string, view: AnalysisView): ExplainJson {
  const rc = view.rootCause ?? { summary: "", steps: [], repo: "" };
  const rootCause = rc.steps
    .map((s) => (s.title && s.detail ? `${s.title}: ${s.detail}` : s.title || s.detail))
    .filter(Boolean)
    .join("\n");
  const important = rc.steps.find((s) => s.important && s.file) ?? rc.steps.find((s) => s.file);
  return {
    issueId,
    analysis: {
      summary: rc.summary,
      rootCause: rootCause || rc.summary,
      suggestedFix: view.solution?.summary ?? "",
      affectedCode: important?.file ?? rc.repo,
    },
  };
}

/**
 * The line of a step: the API has none, so it is read from `file:line` or "line N" in the step's
 * text; 0 when the text names none.
 */
export function lineOf(text: string, file: string): number {
  if (file) {
    const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const m = new RegExp(`${escaped}:(\\d+)`).exec(text);
    if (m) return Number(m[1]);
  }
  const m = /\bline (\d+)/i.exec(text) ?? FILE_LINE_RE.exec(text);
  if (!m) return 0;
  return Number(m[m.length - 1]);
}

/**
 * Maps a solution view to the plan shape. `confidence` is the service's score when it gave one,
 * else the issue's `seerFixabilityScore`, else 0; always clamped to 0..1.
 */
export function toPlanJson(
  issueId: string,
  view: AnalysisView,
  fixability: number | null | undefined,
): PlanJson {
  const steps = (view.solution?.steps ?? []).map((s, i) => ({
    step: i + 1,
    action: s.title,
    code: s.detail,
    file: s.file,
    line: lineOf(`${s.title}\n${s.detail}`, s.file),
  }));
  const raw = view.confidence ?? fixability ?? 0;
  const confidence = Number.isFinite(raw) ? Math.min(1, Math.max(0, raw)) : 0;
  return { issueId, plan: { steps, confidence } };
}
