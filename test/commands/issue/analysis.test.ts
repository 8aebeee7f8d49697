import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import explain from "../../../src/commands/issue/explain.ts";
import plan from "../../../src/commands/issue/plan.ts";
import { AnalysisError } from "../../../src/lib/errors.ts";
import { ODD_POLLS, POLL } from "../../../src/lib/issue/analysis.ts";
import { type AutofixScenario, autofixRun, setAutofixScenario } from "../../fake-api/routes/autofix.ts";
import { READ_ONLY_TOKEN, USER_TOKEN } from "../../fake-api/seed.ts";
import { createTestContext } from "../../helpers/context.ts";
import { useFakeApi } from "../../helpers/fake-api.ts";

const api = useFakeApi();

const ExplainSchema = v.strictObject({
  issueId: v.string(),
  analysis: v.strictObject({
    summary: v.string(),
    rootCause: v.string(),
    suggestedFix: v.string(),
    affectedCode: v.string(),
  }),
});
const PlanSchema = v.strictObject({
  issueId: v.string(),
  plan: v.strictObject({
    steps: v.array(
      v.strictObject({
        step: v.pipe(v.number(), v.integer(), v.minValue(1)),
        action: v.string(),
        code: v.string(),
        file: v.string(),
        line: v.pipe(v.number(), v.integer(), v.minValue(0)),
      }),
    ),
    confidence: v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
  }),
});

// Issue ids of acme/web: 4001 is WEB-1 and so on; each test uses its own issue so runs never collide.
let nextIssue = 4100;
function issue(scenario: AutofixScenario): string {
  const id = String(nextIssue++);
  setAutofixScenario(api.state, id, scenario);
  return id;
}

const F = { json: true, verbose: false, fresh: false, force: false };

function ctxFor(token = USER_TOKEN, tty = false) {
  return createTestContext({ api, env: { TRACKER_AUTH_TOKEN: token }, tty });
}

const autofixCalls = (id: string, method?: string) =>
  api.requestsTo(`/api/0/organizations/acme/issues/${id}/autofix/`, method);

describe("issue explain", () => {
  test("starts a run, polls with backoff until done, prints the spec's shape (step-based payload)", async () => {
    const id = issue({ pollsPerStage: 3 });
    const t = ctxFor();
    await explain.call(t.ctx, F, `acme/${id}`);
    const out = v.parse(ExplainSchema, JSON.parse(t.stdout()));
    expect(out.issueId).toBe(id);
    expect(out.analysis.summary).toContain("fails with");
    const [first, second, more] = out.analysis.rootCause.split("\n");
    expect(first).toBe(
      "Request enters the handler: The router forwards the request without checking the payload.",
    );
    expect(second).toMatch(
      /^\w+ uses the missing value: At app\/web\/module\d\.js:42 the result is used before it is checked\.$/,
    );
    expect(more).toBeUndefined();
    expect(out.analysis.affectedCode).toMatch(/^app\/web\/module\d\.js$/);
    expect(out.analysis.suggestedFix).toBe("");
    const posts = autofixCalls(id, "POST");
    expect(posts).toHaveLength(1);
    expect(JSON.parse(posts[0]?.body ?? "")).toEqual({ stopping_point: "root_cause", referrer: "api.cli" });
    expect(posts[0]?.headers["content-type"]).toBe("application/json");
    // GET (none) → POST → 3 GETs; the waits grow from 1 s by 1.5×.
    expect(autofixCalls(id, "GET")).toHaveLength(4);
    expect(t.sleeps).toEqual([1000, 1500]);
    expect(t.stderr()).toBe("");
  });

  test("reuses a finished analysis without starting a new one", async () => {
    const id = issue({ existing: { stage: "root_cause" } });
    const t = ctxFor();
    await explain.call(t.ctx, F, `acme/${id}`);
    expect(v.parse(ExplainSchema, JSON.parse(t.stdout())).issueId).toBe(id);
    expect(autofixCalls(id, "POST")).toHaveLength(0);
    expect(autofixCalls(id, "GET")).toHaveLength(1);
    expect(t.sleeps).toEqual([]);
  });

  test("--force starts a new run even when one is finished", async () => {
    const id = issue({ existing: { stage: "root_cause" }, pollsPerStage: 1 });
    const before = autofixRun(api.state, id)?.runId;
    const t = ctxFor();
    await explain.call(t.ctx, { ...F, force: true }, `acme/${id}`);
    expect(autofixCalls(id, "POST")).toHaveLength(1);
    expect(autofixRun(api.state, id)?.runId).not.toBe(before);
  });

  test("a previous run that ended in ERROR is restarted", async () => {
    const id = issue({ existing: { stage: "root_cause", status: "ERROR" }, pollsPerStage: 1 });
    const t = ctxFor();
    await explain.call(t.ctx, F, `acme/${id}`);
    expect(autofixCalls(id, "POST")).toHaveLength(1);
    expect(v.parse(ExplainSchema, JSON.parse(t.stdout())).analysis.summary).not.toBe("");
  });

  test("agent-based payloads map to the same shape", async () => {
    const id = issue({ generation: "agent", pollsPerStage: 1 });
    const t = ctxFor();
    await explain.call(t.ctx, F, `acme/${id}`);
    const out = v.parse(ExplainSchema, JSON.parse(t.stdout()));
    expect(out.analysis.summary).toMatch(/uses a value that can be undefined\.$/);
    expect(out.analysis.rootCause.split("\n")[0]).toMatch(/^Why 1: .* calls \.map on undefined$/);
    expect(out.analysis.affectedCode).toBe("acme/web");
  });

  test("human output has the four sections", async () => {
    const id = issue({ existing: { stage: "solution" } });
    const t = ctxFor();
    await explain.call(t.ctx, { ...F, json: false }, `acme/${id}`);
    const text = t.stdout();
    for (const h of [
      "Summary\n",
      "Root cause\n",
      "Suggested fix\n  Validate the response",
      "Affected code\n  app/web/",
    ]) {
      expect(text).toContain(h);
    }
    expect(text.startsWith(`AI analysis of WEB-`)).toBe(true);
  });

  test("on a TTY the current step is shown on stderr, then cleared", async () => {
    const id = issue({ pollsPerStage: 2 });
    const t = ctxFor(USER_TOKEN, true);
    await explain.call(t.ctx, F, `acme/${id}`);
    expect(t.stderr()).toContain("Figuring out the root cause...");
    expect(t.stderr().endsWith("\r\x1b[K\x1b[?25h")).toBe(true);
    expect(t.stdout()).not.toContain("Figuring");
  });

  test("a run that never finishes times out after 6 minutes of fake time (exit 43)", async () => {
    const id = issue({ outcome: "stuck" });
    const t = ctxFor();
    const err = await explain.call(t.ctx, F, `acme/${id}`).catch((e) => e);
    expect(err).toBeInstanceOf(AnalysisError);
    expect(err.reason).toBe("failed");
    expect(err.exitCode).toBe(43);
    expect(err.message).toContain("did not finish within 360 s");
    const waited = t.sleeps.reduce((a, b) => a + b, 0);
    expect(waited).toBeLessThanOrEqual(POLL.timeoutMs);
    expect(waited).toBeGreaterThan(POLL.timeoutMs - POLL.maxMs);
    expect(Math.max(...t.sleeps)).toBe(POLL.maxMs);
    expect(autofixCalls(id, "POST")).toHaveLength(1);
    expect(t.stdout()).toBe("");
  });

  test("a run that fails is an AnalysisError 'failed' and is not retried", async () => {
    const id = issue({ outcome: "error", pollsPerStage: 1 });
    const t = ctxFor();
    const err = await explain.call(t.ctx, F, `acme/${id}`).catch((e) => e);
    expect(err).toMatchObject({ reason: "failed", exitCode: 43 });
    expect(err.message).toContain("failed (status ERROR)");
    expect(autofixCalls(id, "POST")).toHaveLength(1);
  });

  test("NEED_MORE_INFORMATION is a clear failure", async () => {
    const id = issue({ outcome: "need_info", pollsPerStage: 1 });
    const err = await explain.call(ctxFor().ctx, F, `acme/${id}`).catch((e) => e);
    expect(err.message).toContain("needs more information");
  });

  const reasons: [AutofixScenario["deny"], string, number, string][] = [
    ["no_budget", "no_budget", 41, "/settings/acme/billing/overview/?product=seer"],
    ["no_budget_legacy", "no_budget", 41, "/settings/acme/billing/overview/?product=seer"],
    ["ai_disabled", "ai_disabled", 42, "/settings/acme/#hideAiFeatures"],
    ["not_enabled", "not_enabled", 40, "/settings/acme/seer/"],
    ["not_acknowledged", "not_enabled", 40, "/settings/acme/seer/"],
    ["project_not_enabled", "not_enabled", 40, "/settings/acme/seer/"],
  ];
  for (const [deny, reason, code, path] of reasons) {
    test(`${deny} → AnalysisError ${reason} (exit ${code}) with the settings link`, async () => {
      const id = issue({ deny });
      const err = await explain.call(ctxFor().ctx, F, `acme/${id}`).catch((e) => e);
      expect(err).toBeInstanceOf(AnalysisError);
      expect(err.reason).toBe(reason);
      expect(err.exitCode).toBe(code);
      expect(err.settingsUrl).toBe(`${api.url}${path}`);
      expect(err.format()).toContain(`\n\n  ${api.url}${path}`);
      // The start is never repeated.
      expect(autofixCalls(id, "POST").length).toBeLessThanOrEqual(1);
    });
  }

  test("a plain permission 403 stays an ApiError with the scope hint", async () => {
    const id = issue({});
    const err = await explain.call(ctxFor(READ_ONLY_TOKEN).ctx, F, `acme/${id}`).catch((e) => e);
    expect(err.name).toBe("ApiError");
    expect(err.status).toBe(403);
    expect(err.format()).toContain("event:write");
  });

  test("a 500 on the start is not retried", async () => {
    const id = issue({});
    api.inject({
      method: "POST",
      path: `/api/0/organizations/acme/issues/${id}/autofix/`,
      status: 500,
      times: 5,
    });
    const err = await explain.call(ctxFor().ctx, F, `acme/${id}`).catch((e) => e);
    expect(err.status).toBe(500);
    expect(autofixCalls(id, "POST")).toHaveLength(1);
  });
});

describe("issue plan", () => {
  test("root cause first, then the solution step of the same run; spec shape", async () => {
    const id = issue({ pollsPerStage: 1, confidence: 0.82 });
    const t = ctxFor();
    await plan.call(t.ctx, F, `acme/${id}`);
    const out = v.parse(PlanSchema, JSON.parse(t.stdout()));
    expect(out.plan.confidence).toBe(0.82);
    expect(out.plan.steps.map((s) => [s.step, s.action])).toEqual([
      [1, "Check the response before using it"],
      [2, "Add a regression test"],
    ]);
    expect(out.plan.steps[0]?.file).toMatch(/^app\/web\/module\d\.js$/);
    expect(out.plan.steps[0]?.line).toBe(0);
    const posts = autofixCalls(id, "POST").map((p) => JSON.parse(p.body));
    // The run is continued by its UUID from the start's answer (run_id is deprecated).
    const sentryRunId = autofixRun(api.state, id)?.sentryRunId;
    expect(sentryRunId).toMatch(/^[0-9a-f-]{36}$/);
    expect(posts).toEqual([
      { stopping_point: "root_cause", referrer: "api.cli" },
      { sentry_run_id: sentryRunId, step: "solution", referrer: "api.cli" },
    ]);
  });

  test("a root cause from an earlier run, whose state gives no UUID, is continued by the old run_id", async () => {
    const id = issue({ pollsPerStage: 1, existing: { stage: "root_cause" } });
    const t = ctxFor();
    await plan.call(t.ctx, F, `acme/${id}`);
    expect(v.parse(PlanSchema, JSON.parse(t.stdout())).plan.steps.length).toBeGreaterThan(0);
    const posts = autofixCalls(id, "POST").map((p) => JSON.parse(p.body));
    expect(posts).toEqual([
      { run_id: autofixRun(api.state, id)?.runId, step: "solution", referrer: "api.cli" },
    ]);
  });

  test("reuses a finished plan; confidence falls back to the issue's fixability score", async () => {
    const id = issue({ existing: { stage: "solution" } });
    const t = ctxFor();
    await plan.call(t.ctx, F, `acme/${id}`);
    const out = v.parse(PlanSchema, JSON.parse(t.stdout()));
    expect(autofixCalls(id, "POST")).toHaveLength(0);
    const detail = await (
      await fetch(`${api.urls.us}/api/0/organizations/acme/issues/${id}/`, {
        headers: { Authorization: `Bearer ${USER_TOKEN}` },
      })
    ).json();
    expect(out.plan.confidence).toBe(
      (detail as { seerFixabilityScore: number | null }).seerFixabilityScore ?? 0,
    );
  });

  test("agent-based plans read file and line from the step text", async () => {
    const id = issue({ generation: "agent", existing: { stage: "solution" } });
    const t = ctxFor();
    await plan.call(t.ctx, F, `acme/${id}`);
    const out = v.parse(PlanSchema, JSON.parse(t.stdout()));
    expect(out.plan.steps[0]).toMatchObject({ step: 1, action: "Check res.data", line: 42 });
    expect(out.plan.steps[0]?.file).toMatch(/^app\/web\/module\d\.js$/);
    expect(out.plan.steps[1]).toMatchObject({ step: 2, file: "", line: 0 });
  });

  test("no fix possible: AnalysisError failed with the service's reason", async () => {
    const id = issue({ outcome: "no_solution", pollsPerStage: 1 });
    const err = await plan.call(ctxFor().ctx, F, `acme/${id}`).catch((e) => e);
    expect(err).toMatchObject({ reason: "failed", exitCode: 43 });
    expect(err.message).toContain("not in a connected repository");
  });

  test("human output: numbered steps with file and code", async () => {
    const id = issue({ existing: { stage: "solution" }, confidence: 0.5 });
    setAutofixScenario(api.state, id, { existing: { stage: "solution" }, confidence: 0.5 });
    const t = ctxFor();
    await plan.call(t.ctx, { ...F, json: false }, `acme/${id}`);
    const lines = t.stdout().split("\n");
    expect(lines[0]).toMatch(/^Fix plan for WEB-\w+: .+ \(confidence 50%\)$/);
    expect(lines.slice(1, 5)).toEqual([
      "",
      "1. Check the response before using it",
      expect.stringMatching(/^ {3}app\/web\/module\d\.js$/),
      "     if (!res.data) return [];",
    ]);
  });
});

describe("odd answers end the polling (exit 43) instead of waiting out the timeout", () => {
  const path = (id: string) => `/api/0/organizations/acme/issues/${id}/autofix/`;
  const cases: [string, Record<string, unknown>, string][] = [
    [
      "COMPLETED without a root cause",
      { body: { autofix: { status: "COMPLETED", steps: [] } } },
      "finished without the part that was asked for",
    ],
    [
      "a status nobody knows",
      { body: { autofix: { status: "THINKING_HARD", steps: [] } } },
      "reports a status tracker does not know",
    ],
    ["no run after the start", { body: { autofix: null } }, "has no run, although one was started"],
    ["an empty body", { raw: "" }, "answered with a state tracker cannot read"],
    [
      "HTML instead of JSON",
      { raw: "<html><title>Maintenance</title></html>" },
      "answered with a state tracker cannot read",
    ],
    [
      "a run replaced by another",
      { body: { autofix: { run_id: 987654, status: "PROCESSING", steps: [] } } },
      "was replaced by another run (987654)",
    ],
  ];
  for (const [label, answer, phrase] of cases) {
    test(label, async () => {
      const id = String(nextIssue++);
      // The first look finds no run (so one is started); every poll after that gets the odd answer.
      api.inject({ method: "GET", path: path(id), status: 200, body: { autofix: null } });
      api.inject({ method: "GET", path: path(id), status: 200, times: Number.POSITIVE_INFINITY, ...answer });
      const t = ctxFor();
      const err = await explain.call(t.ctx, F, `acme/${id}`).catch((e) => e);
      expect(err).toBeInstanceOf(AnalysisError);
      expect(err).toMatchObject({ reason: "failed", exitCode: 43 });
      expect(err.message).toContain(phrase);
      expect(autofixCalls(id, "POST")).toHaveLength(1);
      expect(autofixCalls(id, "GET").length).toBeLessThanOrEqual(1 + ODD_POLLS);
      expect(t.sleeps.reduce((a, b) => a + b, 0)).toBeLessThan(10_000);
      expect(t.stdout()).toBe("");
    });
  }
});
