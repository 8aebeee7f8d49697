/** Human output of `issue explain` and `issue plan`. */
import type { ExplainJson, PlanJson } from "../issue/analysis-json.ts";

function section(title: string, body: string): string[] {
  const text = body.trim() === "" ? "-" : body.trim();
  return [title, ...text.split("\n").map((l) => `  ${l}`), ""];
}

/** Renders an explanation: summary, root cause, suggested fix, affected code. */
export function formatExplanation(label: string, e: ExplainJson): string[] {
  const lines = [`AI analysis of ${label}`, ""];
  lines.push(...section("Summary", e.analysis.summary));
  lines.push(...section("Root cause", e.analysis.rootCause));
  lines.push(
    ...section(
      "Suggested fix",
      e.analysis.suggestedFix || "(none yet: run `tracker issue plan` for a fix plan)",
    ),
  );
  lines.push(...section("Affected code", e.analysis.affectedCode));
  return lines.slice(0, -1);
}

/** Renders a fix plan: numbered steps with file:line and code. */
export function formatPlan(label: string, p: PlanJson): string[] {
  const lines = [`Fix plan for ${label} (confidence ${Math.round(p.plan.confidence * 100)}%)`];
  for (const s of p.plan.steps) {
    lines.push("", `${s.step}. ${s.action}`);
    if (s.file) lines.push(`   ${s.file}${s.line > 0 ? `:${s.line}` : ""}`);
    for (const l of s.code.split("\n")) if (l.trim() !== "") lines.push(`     ${l}`);
  }
  if (p.plan.steps.length === 0) lines.push("", "(no steps)");
  return lines;
}
