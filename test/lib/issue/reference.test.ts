import { describe, expect, test } from "bun:test";
import { ValidationError } from "../../../src/lib/errors.ts";
import { computeAliases } from "../../../src/lib/resolve/aliases.ts";
import { lineOf, toExplainJson, toPlanJson } from "../../../src/lib/issue/analysis-json.ts";
import { normaliseStatus, readAnalysis } from "../../../src/lib/issue/analysis-payload.ts";
import { parseIssueRef } from "../../../src/lib/issue/reference.ts";
import { orgFromPermalink } from "../../../src/lib/api/issues.ts";
import { relativeTime } from "../../../src/lib/format/time.ts";

describe("parseIssueRef", () => {
  test.each([
    ["4001", { kind: "numeric", id: "4001" }],
    ["  4001\n", { kind: "numeric", id: "4001" }],
    ["WEB-4Y", { kind: "dashed", prefix: "WEB", suffix: "4Y" }],
    ["my-app-12", { kind: "dashed", prefix: "my-app", suffix: "12" }],
    ["w-4y", { kind: "dashed", prefix: "w", suffix: "4Y" }],
    ["4y", { kind: "suffix", suffix: "4Y" }],
    ["acme/WEB-4Y", { kind: "dashed", prefix: "WEB", suffix: "4Y", org: "acme" }],
    ["acme/4001", { kind: "numeric", id: "4001", org: "acme" }],
    ["https://acme.sentry.io/issues/4001/", { kind: "numeric", id: "4001", org: "acme" }],
    [
      "https://sentry.example.com/organizations/acme/issues/4001/?x=1",
      { kind: "numeric", id: "4001", org: "acme" },
    ],
    ["https://us.sentry.io/issues/4001/", { kind: "numeric", id: "4001" }],
  ])("%p", (raw, want) => {
    expect(parseIssueRef(raw)).toEqual(want as never);
  });

  test.each([
    "",
    "  ",
    "WEB 4Y",
    "WEB-",
    "-4Y",
    "a/b/c",
    "acme/4Y",
    "acme/",
    "https://x.io/nothing",
    "WEB-4Y!",
  ])("rejects %p with a ValidationError", (raw) => {
    expect(() => parseIssueRef(raw)).toThrow(ValidationError);
  });
});

describe("org-wide aliases (the one alias algorithm, all projects in one org)", () => {
  const inOrg = (slugs: string[]) => computeAliases(slugs.map((project) => ({ org: "acme", project })));
  test("shortest unique prefixes, never ending in a separator", () => {
    const slugs = ["web", "worker", "api", "mobile-app", "mobile-api", "web-admin"];
    expect(inOrg(slugs)).toEqual(["web", "wo", "a", "mobile-app", "mobile-api", "web-a"]);
  });
  test("aliases are unique", () => {
    const values = inOrg(["a", "ab", "abc", "b", "ba", "x-y", "x-z"]);
    expect(new Set(values).size).toBe(values.length);
  });
});

describe("analysis mapping", () => {
  test("statuses of both generations normalise", () => {
    expect(normaliseStatus("completed")).toBe("COMPLETED");
    expect(normaliseStatus("awaiting_user_input")).toBe("WAITING_FOR_USER_RESPONSE");
    expect(normaliseStatus("canceled")).toBe("CANCELLED");
    expect(normaliseStatus("NEED_MORE_INFORMATION")).toBe("NEED_MORE_INFORMATION");
  });

  test("lineOf reads file:line or 'line N', else 0", () => {
    expect(lineOf("At app/a.py:42 it fails", "app/a.py")).toBe(42);
    expect(lineOf("see line 7", "x.js")).toBe(7);
    expect(lineOf("in b.ts:9", "")).toBe(9);
    expect(lineOf("nothing here", "x.js")).toBe(0);
  });

  test("solution artifacts inside steps (older servers) are read; confidence is clamped", () => {
    const view = readAnalysis({
      run_id: 1,
      status: "COMPLETED",
      steps: [
        {
          key: "root_cause_analysis",
          status: "COMPLETED",
          causes: [
            {
              description: "Bad input",
              root_cause_reproduction: [{ title: "T", code_snippet_and_analysis: "C" }],
            },
          ],
          output_confidence_score: 1.7,
        },
        {
          key: "solution",
          status: "COMPLETED",
          artifacts: [
            {
              key: "solution",
              data: { one_line_summary: "Fix it", steps: [{ title: "Edit", description: "x.py:3" }] },
            },
          ],
        },
      ],
    });
    expect(toExplainJson("9", view)).toEqual({
      issueId: "9",
      analysis: { summary: "Bad input", rootCause: "T: C", suggestedFix: "Fix it", affectedCode: "" },
    });
    expect(toPlanJson("9", view, null)).toEqual({
      issueId: "9",
      plan: { steps: [{ step: 1, action: "Edit", code: "x.py:3", file: "x.py", line: 3 }], confidence: 1 },
    });
  });

  test("a state without results reads as empty, never throws", () => {
    const view = readAnalysis({
      status: "processing",
      blocks: [{ nonsense: true }],
      steps: [{ key: 5 } as never],
    });
    expect(view).toMatchObject({ status: "PROCESSING", runId: undefined, confidence: null });
    expect(view.rootCause).toBeUndefined();
  });
});

describe("small helpers", () => {
  test("orgFromPermalink", () => {
    expect(orgFromPermalink("https://acme.sentry.io/issues/1/")).toBe("acme");
    expect(orgFromPermalink("https://s.example.com/organizations/beta/issues/1/")).toBe("beta");
    expect(orgFromPermalink("not a url")).toBeUndefined();
    expect(orgFromPermalink(null)).toBeUndefined();
  });

  test("relativeTime", () => {
    const now = Date.parse("2026-01-15T12:00:00Z");
    expect(relativeTime("2026-01-15T11:59:30Z", now)).toBe("just now");
    expect(relativeTime("2026-01-15T11:55:00Z", now)).toBe("5m ago");
    expect(relativeTime("2026-01-15T09:00:00Z", now)).toBe("3h ago");
    expect(relativeTime("2026-01-13T12:00:00Z", now)).toBe("2d ago");
    expect(relativeTime("2025-10-15T12:00:00Z", now)).toBe("3mo ago");
    expect(relativeTime("2024-01-01T00:00:00Z", now)).toBe("2y ago");
    expect(relativeTime(null, now)).toBe("-");
  });
});
