/** Mapping an AnalysisView to the spec's JSON of `issue explain` and `issue plan` (API.md 6.5). */
import { type AnalysisView, FILE_LINE_RE } from "./analysis-payload.ts";

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
