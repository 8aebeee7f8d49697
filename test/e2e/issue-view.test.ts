import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { setAutofixScenario } from "../fake-api/routes/autofix.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

const ViewSchema = v.object({
  id: v.string(),
  shortId: v.string(),
  title: v.string(),
  count: v.number(),
  userCount: v.number(),
  status: v.string(),
  level: v.string(),
  permalink: v.string(),
  org: v.string(),
  project: v.object({ slug: v.string(), name: v.string() }),
  metadata: v.strictObject({
    type: v.string(),
    value: v.string(),
    filename: v.string(),
    function: v.string(),
  }),
  tags: v.array(v.strictObject({ key: v.string(), value: v.string() })),
  latestEvent: v.strictObject({
    eventID: v.string(),
    message: v.string(),
    platform: v.string(),
    timestamp: v.pipe(v.string(), v.regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)),
    frames: v.array(
      v.strictObject({
        filename: v.string(),
        function: v.string(),
        lineNo: v.nullable(v.number()),
        colNo: v.nullable(v.number()),
        inApp: v.boolean(),
      }),
    ),
  }),
});

const view = (ref: string, env: Record<string, string> = {}) =>
  runCli(["issue", "view", ref, "--json"], { api, token: USER_TOKEN, env });
const paths = () => api.requests.map((r) => `${r.host} ${r.path}`);

describe("issue view: every reference form", () => {
  test("full short ID with TRACKER_ORG: one short-id lookup in the org's region", async () => {
    const r = await view("WEB-4Y", { TRACKER_ORG: "acme" });
    expect(r.stderr).toBe("Using organization acme (from TRACKER_ORG)\n");
    expect(r.exitCode).toBe(0);
    const out = v.parse(ViewSchema, JSON.parse(r.stdout));
    expect(out.shortId).toBe("WEB-4Y");
    expect(out.org).toBe("acme");
    // JSON carries what the human view shows: the same in-app frames, in the same order.
    const human = await runCli(["issue", "view", "acme/WEB-4Y"], { api, token: USER_TOKEN });
    expect(out.latestEvent.frames.length).toBeGreaterThan(0);
    for (const f of out.latestEvent.frames)
      expect(human.stdout).toContain(`at ${f.function} (${f.filename}:`);
    expect(human.stdout).toContain(`Project:     acme/${out.project.slug}`);
    expect(out.id).toBe("4158");
    expect(out.tags.map((t) => t.key)).toEqual(["environment", "level", "release"]);
    expect(paths()).toContain("us /api/0/organizations/acme/shortids/WEB-4Y/");
    expect(paths()).toContain("us /api/0/organizations/acme/issues/4158/events/latest/");
  });

  test("lower-case short ID without any org: tried in every org", async () => {
    const r = await view("billing-1");
    expect(r.exitCode).toBe(0);
    expect(v.parse(ViewSchema, JSON.parse(r.stdout)).project.slug).toBe("billing");
    expect(paths()).toContain("de /api/0/organizations/globex/shortids/BILLING-1/");
    expect(paths()).toContain("us /api/0/organizations/acme/shortids/BILLING-1/");
  });

  test("<org>/<short id>", async () => {
    const r = await view("globex/WEB-2");
    expect(r.exitCode).toBe(0);
    const out = v.parse(ViewSchema, JSON.parse(r.stdout));
    expect(out.project.name).toBe("Globex Web");
  });

  test("numeric ID with an org from the environment uses the org-scoped route", async () => {
    const r = await view("4001", { TRACKER_ORG: "acme" });
    expect(r.exitCode).toBe(0);
    expect(v.parse(ViewSchema, JSON.parse(r.stdout)).shortId).toBe("WEB-1");
    expect(paths()).toContain("us /api/0/organizations/acme/issues/4001/");
  });

  test("numeric ID with no org uses the legacy route and the org from the permalink", async () => {
    const r = await view("4001");
    expect(r.exitCode).toBe(0);
    expect(paths()[0]).toBe("control /api/0/issues/4001/");
    expect(paths()).toContain("us /api/0/organizations/acme/issues/4001/events/latest/");
  });

  test("issue URL", async () => {
    const r = await view("https://acme.sentry.io/issues/4002/");
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).shortId).toBe("WEB-2");
  });

  test("bare suffix in the current project", async () => {
    const r = await view("4y", { TRACKER_ORG: "acme", TRACKER_PROJECT: "web" });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).shortId).toBe("WEB-4Y");
  });

  test("bare suffix without a project: ResolutionError (exit 23)", async () => {
    const r = await view("4Y");
    expect(r.exitCode).toBe(23);
    expect(JSON.parse(r.stderr).error).toMatchObject({
      class: "ResolutionError",
      message: "Issue '4Y' is only a suffix and no current project is known.",
    });
  });

  test("unknown short ID: ResolutionError saying what was tried", async () => {
    const r = await view("WEB-ZZZZ", { TRACKER_ORG: "acme" });
    expect(r.exitCode).toBe(23);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("Issue 'WEB-ZZZZ' was not found in organization 'acme'.");
    expect(r.stderr).toContain("Tried: short ID WEB-ZZZZ in acme");
  });

  test("unknown numeric ID", async () => {
    const r = await view("999999", { TRACKER_ORG: "acme" });
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toContain("Issue 999999 was not found in organization 'acme'.");
  });

  test("malformed input: ValidationError (exit 21), no request", async () => {
    const r = await view("WEB 4Y!");
    expect(r.exitCode).toBe(21);
    expect(r.stderr).toContain("Invalid issue 'WEB 4Y!'");
    expect(api.requests).toEqual([]);
  });
});

describe("issue view human output", () => {
  test("title, fields, tags, latest event and in-app frames (crashing frame first)", async () => {
    const r = await runCli(["issue", "view", "acme/4001"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(0);
    const text = r.stdout;
    expect(text.split("\n")[0]).toBe("WEB-1: ReferenceError: user is not defined");
    for (const s of [
      "  Status:      unresolved",
      "  Events:      1805",
      "  Users:       951",
      "  Culprit:     renderProfile(app/web/module0.js)",
      "  Link:        https://acme.sentry.io/issues/4001/",
      "Tags\n  environment  ",
      "  Platform:    javascript",
      "  Stack (most recent call first):\n    at renderProfile (app/web/module0.js:42:7)\n    at dispatch (app/router.js:27:7)\n    at run (app/main.js:10:7)\n",
    ]) {
      expect(text).toContain(s);
    }
    expect(text).not.toContain("invokeCallback");
  });
});

describe("issue explain/plan end to end", () => {
  test("explain --json finishes without waiting when the run completes on the first poll", async () => {
    setAutofixScenario(api.state, "4003", { pollsPerStage: 1 });
    const r = await runCli(["issue", "explain", "acme/WEB-3", "--json"], { api, token: USER_TOKEN });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout).analysis)).toEqual([
      "summary",
      "rootCause",
      "suggestedFix",
      "affectedCode",
    ]);
  });

  test("plan: no budget exits 41 with the billing link; stdout empty", async () => {
    setAutofixScenario(api.state, "4004", { deny: "no_budget" });
    const r = await runCli(["issue", "plan", "acme/WEB-4"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(41);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`${api.url}/settings/acme/billing/overview/?product=seer`);
  });

  test("explain: AI features disabled in the org exits 42", async () => {
    const org = api.state.orgs.find((o) => o.slug === "acme");
    if (org) org.hideAiFeatures = true;
    try {
      const r = await runCli(["issue", "explain", "acme/WEB-5"], { api, token: USER_TOKEN });
      expect(r.exitCode).toBe(42);
      expect(r.stderr).toContain(`${api.url}/settings/acme/#hideAiFeatures`);
    } finally {
      if (org) org.hideAiFeatures = false;
    }
  });
});
