/**
 * Reading AI-analysis state: both autofix payload generations (API.md 6.2) and the run statuses
 * (6.3) become one AnalysisView, whatever the server sends.
 */
import * as v from "valibot";
import type { AutofixState } from "../api/autofix.ts";

/** Normalised run status (API.md 6.3). */
export type RunStatus =
  | "PROCESSING"
  | "COMPLETED"
  | "WAITING_FOR_USER_RESPONSE"
  | "NEED_MORE_INFORMATION"
  | "ERROR"
  | "CANCELLED"
  /** A status this version does not know (a newer service, or a broken one). */
  | "UNKNOWN";

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
  /** The run's UUID, when the service gave it (preferred to continue the run). */
  sentryRunId?: string;
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

/** Upper-cases and unifies the status spellings of both generations; a missing one is PROCESSING. */
export function normaliseStatus(raw: string | null | undefined): RunStatus {
  const s = (raw ?? "").trim().toUpperCase();
  if (s === "" || s === "PENDING") return "PROCESSING";
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
  return (known as string[]).includes(s) ? (s as RunStatus) : "UNKNOWN";
}

/** `path/file.ext:line` in step text. */
export const FILE_LINE_RE = /([\w./-]+\.[A-Za-z0-9]+):(\d+)/;

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
    ...(state.sentry_run_id ? { sentryRunId: state.sentry_run_id } : {}),
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
