/** The views of `issue explain` and `issue plan`. */
import type { ExplainJson, PlanJson } from "../issue/analysis-json.ts";
import type { DocView, ViewSection } from "../view/doc.ts";

/** An analysis and the issue it is of (`WEB-3: ZeroDivisionError…`, its title line). */
export interface Analysis<J> {
  label: string;
  json: J;
}

/** A titled block of prose, indented; `-` when the service said nothing. */
function prose(heading: string, body: string, more: Partial<ViewSection> = {}): ViewSection {
  const text = body.trim() === "" ? "-" : body.trim();
  return { heading, block: { kind: "lines", lines: text.split("\n").map((l) => `  ${l}`) }, ...more };
}

/**
 * `issue explain`: summary, root cause, suggested fix, affected code. Under a size bound the
 * markdown drops the affected code first, then the suggested fix.
 */
export const ISSUE_EXPLAIN_VIEW: DocView<Analysis<ExplainJson>> = {
  name: "issue explain",
  id: "issueId",
  document: (d) => d.json,
  sections: ({ label, json }) => [
    { block: { kind: "lines", lines: [`AI analysis of ${label}`] } },
    prose("Summary", json.analysis.summary),
    prose("Root cause", json.analysis.rootCause),
    prose(
      "Suggested fix",
      json.analysis.suggestedFix || "(none yet: run `tracker issue plan` for a fix plan)",
      { priority: 1, label: "suggested fix" },
    ),
    prose("Affected code", json.analysis.affectedCode, { priority: 3, label: "affected code" }),
  ],
};

/**
 * `issue plan`: numbered steps with file:line and code. Under a size bound the markdown keeps the
 * first three steps and drops the last ones first.
 */
export const ISSUE_PLAN_VIEW: DocView<Analysis<PlanJson>> = {
  name: "issue plan",
  id: "issueId",
  document: (d) => d.json,
  sections: ({ label, json }) => {
    const { steps, confidence } = json.plan;
    const title: ViewSection = {
      block: {
        kind: "lines",
        lines: [`Fix plan for ${label} (confidence ${Math.round(confidence * 100)}%)`],
      },
    };
    if (steps.length === 0) return [title, { block: { kind: "lines", lines: ["(no steps)"] } }];
    return [
      title,
      ...steps.map(
        (s, k): ViewSection => ({
          block: {
            kind: "lines",
            lines: [
              `${s.step}. ${s.action}`,
              ...(s.file ? [`   ${s.file}${s.line > 0 ? `:${s.line}` : ""}`] : []),
              ...s.code
                .split("\n")
                .filter((l) => l.trim() !== "")
                .map((l) => `     ${l}`),
            ],
          },
          priority: k < 3 ? 0 : 4 + k,
          label: "plan steps",
        }),
      ),
    ];
  },
};
