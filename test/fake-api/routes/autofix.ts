/**
 * AI analysis ("autofix", API.md section 6): POST starts or continues a run, GET returns its
 * state in either payload generation. Runs advance one stage per `pollsPerStage` GETs. Tests set
 * per-issue behaviour with `setAutofixScenario`.
 */
import { detail, json } from "../http.ts";
import type { FakeRequest, FakeState, Route } from "../types.ts";
import { type FakeIssue, orgIssueOr404 } from "./issues.ts";

/** How the fake answers for one issue. */
export interface AutofixScenario {
  /** Payload generation: step-based (default) or agent-based. */
  generation?: "step" | "agent";
  /** GETs a running stage needs before it completes (default 2). */
  pollsPerStage?: number;
  /** `stuck` never completes; `error`/`need_info` end the run so; `no_solution` ends without a fix. */
  outcome?: "ok" | "error" | "stuck" | "need_info" | "no_solution";
  /** Refuse the analysis the way Sentry does (API.md 6.4). */
  deny?:
    | "no_budget"
    | "no_budget_legacy"
    | "ai_disabled"
    | "not_enabled"
    | "not_acknowledged"
    | "project_not_enabled"
    | "permission";
  /** A run that already exists before the client asks. */
  existing?: { stage: "root_cause" | "solution"; status?: "COMPLETED" | "ERROR" | "PROCESSING" };
  /** `output_confidence_score` of the steps (step-based only). */
  confidence?: number | null;
}

/** One run. */
interface FakeRun {
  runId: number;
  /** The run's UUID (API.md 6.1, published reference): preferred over `runId` to continue a run. */
  sentryRunId: string;
  issueId: string;
  goal: "root_cause" | "solution";
  stage: "root_cause" | "solution";
  status: "PROCESSING" | "COMPLETED" | "ERROR" | "NEED_MORE_INFORMATION";
  pollsLeft: number;
  rootCauseDone: boolean;
  solutionDone: boolean;
  updatedAt: string;
}

interface AutofixStore {
  scenarios: Map<string, AutofixScenario>;
  runs: Map<string, FakeRun>;
  nextRunId: number;
}

const STORE_KEY = "autofix";
const STOPPING_POINTS = ["root_cause", "solution", "code_changes", "open_pr"];
const STEPS = ["root_cause", "solution", "code_changes", "open_pr", "coding_agent_handoff"];

function store(state: FakeState): AutofixStore {
  let s = state.store.get(STORE_KEY) as AutofixStore | undefined;
  if (!s) {
    s = { scenarios: new Map(), runs: new Map(), nextRunId: 12345 };
    state.store.set(STORE_KEY, s);
  }
  return s;
}

/** Sets the behaviour for one issue (and seeds an existing run if the scenario has one). */
export function setAutofixScenario(state: FakeState, issueId: string, scenario: AutofixScenario): void {
  const s = store(state);
  s.scenarios.set(issueId, scenario);
  s.runs.delete(issueId);
  if (scenario.existing) {
    const status = scenario.existing.status ?? "COMPLETED";
    const solution = scenario.existing.stage === "solution";
    s.runs.set(issueId, {
      sentryRunId: crypto.randomUUID(),
      runId: s.nextRunId++,
      issueId,
      goal: scenario.existing.stage,
      stage: scenario.existing.stage,
      status,
      pollsLeft: scenario.pollsPerStage ?? 2,
      rootCauseDone: status === "COMPLETED" || (solution && status === "PROCESSING"),
      solutionDone: solution && status === "COMPLETED",
      updatedAt: "2026-01-15T11:00:00.000000",
    });
  }
}

/** The run of an issue, if any (tests assert on it). */
export function autofixRun(state: FakeState, issueId: string): Readonly<FakeRun> | undefined {
  return store(state).runs.get(issueId);
}

function denial(req: FakeRequest, scenario: AutofixScenario, post: boolean): Response | undefined {
  const org = req.state.orgs.find((o) => o.slug === req.params.org || o.id === req.params.org);
  if (org?.hideAiFeatures || scenario.deny === "ai_disabled") {
    return detail(403, "AI features are disabled for this organization.");
  }
  switch (scenario.deny) {
    case "not_enabled":
      return detail(
        403,
        "Seer has not been enabled for this organization. Please open an issue at sentry.io/issues and set up Seer.",
      );
    case "not_acknowledged":
      return detail(403, "AI Autofix has not been acknowledged by the organization.");
    case "project_not_enabled":
      return detail(403, "AI Autofix is not enabled for this project.");
    case "permission":
      return post ? detail(403, "You do not have permission to perform this action.") : undefined;
    case "no_budget":
      return post ? json("No budget for Seer Autofix.", 402) : undefined;
    case "no_budget_legacy":
      return post ? detail(402, "No budget for Seer Autofix.") : undefined;
    default:
      return undefined;
  }
}

function advance(run: FakeRun, scenario: AutofixScenario): void {
  if (run.status !== "PROCESSING" || scenario.outcome === "stuck") return;
  run.pollsLeft--;
  if (run.pollsLeft > 0) return;
  if (scenario.outcome === "error") {
    run.status = "ERROR";
    return;
  }
  if (scenario.outcome === "need_info") {
    run.status = "NEED_MORE_INFORMATION";
    return;
  }
  if (run.stage === "root_cause") {
    run.rootCauseDone = true;
    if (run.goal === "solution") {
      run.stage = "solution";
      run.pollsLeft = scenario.pollsPerStage ?? 2;
      return;
    }
  } else run.solutionDone = true;
  run.status = "COMPLETED";
  run.updatedAt = "2026-01-15T12:00:05.000000";
}

function rootCause(x: FakeIssue) {
  const file = x.metadata.filename;
  return {
    id: 0,
    description: `\`${x.metadata.function}\` receives an undefined value and fails with ${x.metadata.type}.`,
    relevant_repos: ["acme/web"],
    reproduction_urls: [],
    root_cause_reproduction: [
      {
        title: "Request enters the handler",
        code_snippet_and_analysis: "The router forwards the request without checking the payload.",
        relevant_code_file: { file_path: "app/router.js", repo_name: "acme/web" },
        is_most_important_event: false,
        timeline_item_type: "internal_code",
      },
      {
        title: `${x.metadata.function} uses the missing value`,
        code_snippet_and_analysis: `At ${file}:42 the result is used before it is checked.`,
        relevant_code_file: { file_path: file, repo_name: "acme/web" },
        is_most_important_event: true,
        timeline_item_type: "internal_code",
      },
    ],
  };
}

function solutionItems(x: FakeIssue) {
  return [
    {
      title: "Check the response before using it",
      code_snippet_and_analysis: "if (!res.data) return [];",
      relevant_code_file: { file_path: x.metadata.filename, repo_name: "acme/web" },
      is_active: true,
      timeline_item_type: "internal_code",
    },
    {
      title: "Add a regression test",
      code_snippet_and_analysis: "it('handles an empty response', ...)",
      relevant_code_file: { file_path: "test/api.test.js", repo_name: "acme/web" },
      is_active: true,
      timeline_item_type: "repro_test",
    },
  ];
}

function stepPayload(run: FakeRun, x: FakeIssue, scenario: AutofixScenario) {
  const confidence = scenario.confidence ?? null;
  const steps: unknown[] = [
    {
      id: "step-0",
      index: 0,
      key: "root_cause_analysis_processing",
      status: run.rootCauseDone ? "COMPLETED" : run.status === "PROCESSING" ? "PROCESSING" : run.status,
      title: "Analyzing the Issue",
      progress: [
        {
          message: "Looking at the stack trace...",
          timestamp: "2026-01-15T12:00:00.1",
          type: "INFO",
          data: null,
        },
        {
          message: "Figuring out the root cause...",
          timestamp: "2026-01-15T12:00:01.2",
          type: "INFO",
          data: null,
        },
      ],
    },
  ];
  if (run.rootCauseDone) {
    steps.push({
      id: "step-1",
      index: 1,
      key: "root_cause_analysis",
      status: "COMPLETED",
      title: "Root Cause Analysis",
      type: "root_cause_analysis",
      progress: [],
      causes: [rootCause(x)],
      selection: { cause_id: 0, instruction: null },
      output_confidence_score: confidence,
      proceed_confidence_score: null,
    });
  }
  if (run.stage === "solution") {
    const done = run.solutionDone;
    steps.push({
      id: "step-2",
      index: 2,
      key: "solution",
      status: done ? "COMPLETED" : run.status,
      title: "Planning Solution",
      type: "solution",
      progress: [
        { message: "Planning the fix...", timestamp: "2026-01-15T12:00:03.0", type: "INFO", data: null },
      ],
      description: done ? "Validate the response before mapping over it." : null,
      solution: done ? solutionItems(x) : [],
      output_confidence_score: done ? confidence : null,
    });
  }
  if (run.status === "COMPLETED" && run.stage === "solution" && scenario.outcome === "no_solution") {
    const last = steps[steps.length - 1] as Record<string, unknown>;
    last.solution = [];
    last.description = null;
    last.artifacts = [
      { key: "solution", data: null, reason: "The code needed for a fix is not in a connected repository." },
    ];
  }
  return {
    run_id: run.runId,
    status: run.status,
    updated_at: run.updatedAt,
    request: { organization_id: 100001, project_id: Number(x.projectId), repos: [] },
    codebases: {},
    steps,
    repositories: [],
    coding_agents: {},
    completed_at: null,
  };
}

function agentPayload(run: FakeRun, x: FakeIssue, scenario: AutofixScenario) {
  const artifacts: unknown[] = [];
  if (run.rootCauseDone) {
    artifacts.push({
      key: "root_cause",
      data: {
        one_line_description: `${x.metadata.function} uses a value that can be undefined.`,
        five_whys: [
          `${x.metadata.function} calls .map on undefined`,
          "the API answered without a data field",
          "errors from the API are not checked",
        ],
        reproduction_steps: ["Open the dashboard while the API is down"],
        relevant_repo: "acme/web",
      },
    });
  }
  if (run.solutionDone) {
    artifacts.push(
      scenario.outcome === "no_solution"
        ? { key: "solution", data: null, reason: "No fix could be produced." }
        : {
            key: "solution",
            data: {
              one_line_summary: "Guard the response before mapping.",
              steps: [
                {
                  title: "Check res.data",
                  description: `In ${x.metadata.filename}:42 return [] when data is missing.`,
                },
                { title: "Add a test", description: "Cover the empty response." },
              ],
            },
          },
    );
  }
  const status = run.status === "NEED_MORE_INFORMATION" ? "need_more_information" : run.status.toLowerCase();
  return {
    run_id: run.runId,
    status,
    updated_at: "2026-08-01T10:00:00Z",
    blocks: [{ id: "block-1", message: { role: "assistant", content: "Investigating" }, artifacts }],
    pending_user_input: null,
    repo_pr_states: {},
    coding_agents: {},
  };
}

function getState(req: FakeRequest): Response {
  const r = orgIssueOr404(req);
  if (r instanceof Response) return r;
  const s = store(req.state);
  const scenario = s.scenarios.get(r.issue.id) ?? {};
  const denied = denial(req, scenario, false);
  if (denied) return denied;
  const run = s.runs.get(r.issue.id);
  if (!run) return json({ autofix: null });
  advance(run, scenario);
  const payload =
    scenario.generation === "agent"
      ? agentPayload(run, r.issue, scenario)
      : stepPayload(run, r.issue, scenario);
  return json({ autofix: payload });
}

function start(req: FakeRequest): Response {
  const r = orgIssueOr404(req);
  if (r instanceof Response) return r;
  const s = store(req.state);
  const scenario = s.scenarios.get(r.issue.id) ?? {};
  const denied = denial(req, scenario, true);
  if (denied) return denied;
  let body: Record<string, unknown>;
  try {
    body = req.body.trim() === "" ? {} : (JSON.parse(req.body) as Record<string, unknown>);
    if (!body || typeof body !== "object" || Array.isArray(body)) throw new Error("not an object");
  } catch {
    return detail(400, "Malformed request body.");
  }
  const sp = body.stopping_point;
  if (sp !== undefined && !STOPPING_POINTS.includes(String(sp))) {
    return json({ stopping_point: [`"${String(sp)}" is not a valid choice.`] }, 400);
  }
  const step = body.step;
  if (step !== undefined && !STEPS.includes(String(step))) {
    return json({ step: [`"${String(step)}" is not a valid choice.`] }, 400);
  }
  const polls = scenario.pollsPerStage ?? 2;
  const existing = s.runs.get(r.issue.id);
  // `sentry_run_id` takes precedence over the deprecated `run_id` when both are given.
  const continuing = body.sentry_run_id !== undefined || body.run_id !== undefined;
  if (continuing && sp === undefined) {
    const matches =
      existing &&
      (body.sentry_run_id !== undefined
        ? existing.sentryRunId === body.sentry_run_id
        : existing.runId === Number(body.run_id));
    if (!existing || !matches) return detail(404, "Autofix run not found.");
    if (step === "solution") {
      if (!existing.rootCauseDone) return detail(400, "The root cause step has not completed.");
      Object.assign(existing, {
        goal: "solution",
        stage: "solution",
        status: "PROCESSING",
        pollsLeft: polls,
      });
      return json({ run_id: existing.runId, sentry_run_id: existing.sentryRunId }, 202);
    }
  }
  const goal = sp === undefined || sp === "root_cause" ? "root_cause" : "solution";
  const run: FakeRun = {
    sentryRunId: crypto.randomUUID(),
    runId: s.nextRunId++,
    issueId: r.issue.id,
    goal,
    stage: "root_cause",
    status: "PROCESSING",
    pollsLeft: polls,
    rootCauseDone: false,
    solutionDone: false,
    updatedAt: "2026-01-15T12:00:00.000000",
  };
  s.runs.set(r.issue.id, run);
  return json({ run_id: run.runId, sentry_run_id: run.sentryRunId }, 202);
}

/** Routes of this module. */
export const autofixRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/api/0/organizations/:org/issues/:id/autofix/",
    hosts: "region",
    scopes: ["event:read", "event:write", "event:admin"],
    handler: getState,
  },
  {
    method: "POST",
    pattern: "/api/0/organizations/:org/issues/:id/autofix/",
    hosts: "region",
    scopes: ["event:write", "event:admin"],
    handler: start,
  },
];
