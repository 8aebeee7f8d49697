import { describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { setAutofixScenario } from "../../fake-api/routes/autofix.ts";
import { seedFeedback } from "../../fake-api/routes/feedback.ts";
import { seedIncident } from "../../fake-api/routes/incidents.ts";
import { seedReplays } from "../../fake-api/routes/replays.ts";
import { TRACE_NESTED } from "../../fake-api/routes/traces.ts";
import { USER_TOKEN } from "../../fake-api/seed.ts";
import { runCli, tempDir } from "../../helpers/cli.ts";
import { useFakeApi } from "../../helpers/fake-api.ts";
import { initializeParams, type McpSession, startMcp } from "../../helpers/mcp-client.ts";

// Runs against the compiled binary when TRACKER_TEST_BINARY is set (CI's smoke step), else the source.
const api = useFakeApi();

async function session(args: string[] = [], token: string | null = USER_TOKEN): Promise<McpSession> {
  const s = startMcp(args, { api, token: token ?? undefined });
  const init = await s.request("initialize", initializeParams());
  expect(init.error).toBeUndefined();
  s.writeRaw(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  return s;
}

/** Calls a tool and returns its result (content parsed as JSON unless raw). */
async function call(s: McpSession, name: string, args: Record<string, unknown> = {}) {
  const a = await s.request("tools/call", { name, arguments: args });
  expect(a.error).toBeUndefined();
  const result = a.result as { isError?: boolean; content: { type: string; text: string }[] };
  expect(result.content).toHaveLength(1);
  return { isError: result.isError === true, text: result.content[0]?.text ?? "" };
}

async function closeCleanly(s: McpSession): Promise<string> {
  const { exitCode, stderr } = await s.close();
  expect(exitCode).toBe(0);
  // Nothing but protocol messages on stdout.
  for (const line of s.lines) expect(JSON.parse(line).jsonrpc).toBe("2.0");
  return stderr;
}

describe("tracker mcp over stdio", () => {
  test("initialize negotiates the protocol version and carries the shared instructions", async () => {
    const s = startMcp([], { api, token: USER_TOKEN });
    const known = await s.request("initialize", initializeParams("2025-03-26"));
    expect(known.result).toMatchObject({
      protocolVersion: "2025-03-26",
      capabilities: { tools: {} },
      serverInfo: { name: "tracker" },
    });
    expect(String(known.result?.instructions)).toContain("isError");
    const pong = await s.request("ping");
    expect(pong.result).toEqual({});
    await closeCleanly(s);
    const t = startMcp([], { api, token: USER_TOKEN });
    const unknown = await t.request("initialize", initializeParams("1999-01-01"));
    expect(unknown.result?.protocolVersion).toBe("2025-11-25");
    await closeCleanly(t);
    expect(api.requests).toEqual([]);
  });

  test("tools/list stays under 10 KB (issue 34) and offers no write tool by default", async () => {
    const s = await session();
    const list = await s.request("tools/list");
    const size = Buffer.byteLength(JSON.stringify(list.result));
    expect(size).toBeLessThan(10 * 1024);
    const names = ((list.result?.tools ?? []) as { name: string }[]).map((t) => t.name);
    expect(names).toEqual([
      "issue_list",
      "issue_view",
      "issue_events",
      "event_view",
      "issue_explain",
      "issue_plan",
      "trace_list",
      "trace_view",
      "org_list",
      "project_list",
      "resolve_url",
      "log_search",
      "span_search",
      "query",
      "issue_tags",
      "release_list",
      "attribute_list",
      "release_view",
      "status",
      "issue_activity",
      "issue_timeline",
      "feedback_list",
      "feedback_view",
      "replay_list",
      "replay_view",
    ]);
    await closeCleanly(s);
    const w = await session(["--allow-writes"]);
    const all = await w.request("tools/list");
    const writeNames = ((all.result?.tools ?? []) as { name: string }[]).map((t) => t.name);
    expect(writeNames.filter((n) => n === "issue_update" || n === "issue_note")).toEqual([
      "issue_update",
      "issue_note",
    ]);
    expect(Buffer.byteLength(JSON.stringify(all.result))).toBeLessThan(10 * 1024);
    await closeCleanly(w);
  });

  test("read tools return the CLI's JSON documents from the fake API", async () => {
    const s = await session();
    const orgs = JSON.parse((await call(s, "org_list")).text) as { slug: string }[];
    expect(orgs.map((o) => o.slug).sort()).toEqual(["acme", "globex", "initech"]);

    const projects = JSON.parse((await call(s, "project_list", { org: "acme" })).text);
    expect(JSON.stringify(projects)).toContain('"web"');

    const issues = JSON.parse((await call(s, "issue_list", { target: "acme/web", limit: 3 })).text);
    expect(issues.data).toHaveLength(3);
    expect(issues.hasMore).toBe(true);

    const view = JSON.parse((await call(s, "issue_view", { issue: "acme/WEB-4Y" })).text);
    expect(view).toMatchObject({ shortId: "WEB-4Y", id: "4158" });
    expect(view.latestEvent.eventID).toEqual(expect.any(String));

    setAutofixScenario(api.state, "4003", { pollsPerStage: 1 });
    const explain = JSON.parse((await call(s, "issue_explain", { issue: "acme/WEB-3" })).text);
    expect(Object.keys(explain.analysis)).toEqual(["summary", "rootCause", "suggestedFix", "affectedCode"]);
    const plan = JSON.parse((await call(s, "issue_plan", { issue: "acme/WEB-3" })).text);
    expect(plan.plan.steps.length).toBeGreaterThan(0);

    const traces = JSON.parse((await call(s, "trace_list", { target: "acme/web", limit: 2 })).text);
    expect(traces.data).toHaveLength(2);
    const trace = JSON.parse((await call(s, "trace_view", { trace: TRACE_NESTED, org: "acme" })).text);
    expect(trace).toMatchObject({ traceId: TRACE_NESTED, org: "acme" });

    const byUrl = JSON.parse(
      (await call(s, "resolve_url", { url: `${api.url}/organizations/acme/issues/4158/?project=1` })).text,
    );
    expect(byUrl.shortId).toBe("WEB-4Y");
    const projectUrl = JSON.parse(
      (await call(s, "resolve_url", { url: `${api.url}/organizations/acme/projects/web/` })).text,
    );
    expect(JSON.stringify(projectUrl)).toContain('"web"');
    await closeCleanly(s);
  });

  test("fields, maxChars and format shape results with the CLI's own machinery", async () => {
    const s = await session();
    const slim = JSON.parse(
      (await call(s, "issue_list", { target: "acme/web", limit: 2, fields: ["shortId"] })).text,
    );
    expect(slim).toEqual({
      data: [{ shortId: "WEB-1" }, { shortId: "WEB-2" }],
      hasMore: true,
      nextCursor: "0:2:0",
      total: 1282,
    });
    const md = await call(s, "issue_view", { issue: "acme/WEB-4Y", format: "md", maxChars: 300 });
    expect(md.text).toStartWith("## WEB-4Y: ");
    expect(md.text.length).toBeLessThanOrEqual(300);
    const bad = await call(s, "org_list", { fields: ["nope"] });
    expect(bad.isError).toBe(true);
    expect(JSON.parse(bad.text).error).toMatchObject({ class: "ValidationError", code: 21 });
    await closeCleanly(s);
  });

  test("incident tools: issue_activity, feedback_list and replay_view return the CLI's documents", async () => {
    seedIncident(api.state, "acme", "WEB-4Y");
    seedFeedback(api.state);
    const [replay] = seedReplays(api.state);
    const s = await session();
    const activity = JSON.parse((await call(s, "issue_activity", { issue: "acme/WEB-4Y" })).text);
    expect(activity.data.map((a: { type: string }) => a.type)).toContain("set_regression");
    const feedback = JSON.parse((await call(s, "feedback_list", { target: "acme/web", status: "all" })).text);
    expect(feedback.data).toHaveLength(3);
    const view = JSON.parse((await call(s, "replay_view", { replay, target: "acme/web" })).text);
    expect(view.breadcrumbs.map((b: { category: string }) => b.category)).toContain("ui.click");
    const md = await call(s, "issue_timeline", { issue: "acme/WEB-4Y", format: "md" });
    expect(md.text).toContain("| When | What | Who | Detail |");
    await closeCleanly(s);
  });

  test("issue_events and event_view", async () => {
    const s = await session();
    const events = JSON.parse((await call(s, "issue_events", { issue: "acme/WEB-4Y", limit: 3 })).text);
    expect(events.data).toHaveLength(3);
    const id = events.data[1].eventID as string;
    const event = JSON.parse((await call(s, "event_view", { event: `acme/web/${id}` })).text);
    expect(event.eventID).toBe(id);
    const byUrl = JSON.parse(
      (await call(s, "resolve_url", { url: `https://acme.sentry.io/issues/4158/events/${id}/` })).text,
    );
    expect(byUrl.eventID).toBe(id);
    await closeCleanly(s);
  });

  test("with --allow-writes: issue_update (dryRun sends nothing) and issue_note", async () => {
    const s = await session(["--allow-writes"]);
    const dry = JSON.parse(
      (
        await call(s, "issue_update", {
          issues: ["acme/WEB-1"],
          status: "resolved",
          assignee: "me",
          dryRun: true,
        })
      ).text,
    );
    expect(dry).toMatchObject({ dryRun: true, failed: [] });
    expect(dry.changed.map((i: { status: string }) => i.status)).toContain("resolved");
    expect(api.requests.filter((r) => r.method !== "GET")).toEqual([]);
    const real = JSON.parse(
      (await call(s, "issue_update", { issues: ["acme/WEB-1"], status: "archived" })).text,
    );
    expect(real.changed[0]).toMatchObject({ shortId: "WEB-1", status: "ignored" });
    const note = JSON.parse(
      (await call(s, "issue_note", { issue: "acme/WEB-1", text: "seen by the agent" })).text,
    );
    expect(note.data.text).toBe("seen by the agent");
    expect(api.requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`)).toEqual([
      "PUT /api/0/organizations/acme/issues/4001/",
      "POST /api/0/organizations/acme/issues/4001/comments/",
    ]);
    await closeCleanly(s);
  });

  test("a pinned target is the default of the tools", async () => {
    const s = await session(["acme/web"]);
    const issues = JSON.parse((await call(s, "issue_list", { limit: 1 })).text);
    expect(issues.data[0].project.slug).toBe("web");
    await closeCleanly(s);
  });

  test("failures are tool results with isError and the JSON error object", async () => {
    const s = await session([], null);
    const r = await call(s, "org_list");
    expect(r.isError).toBe(true);
    expect(JSON.parse(r.text)).toEqual({
      error: {
        class: "AuthError",
        reason: "not_authenticated",
        code: 10,
        message: "Not authenticated",
        hint: expect.stringContaining("tracker auth login"),
      },
    });
    await closeCleanly(s);
    const t = await session();
    const missing = await call(t, "issue_view", { issue: "acme/NOPE-1" });
    expect(missing.isError).toBe(true);
    expect(JSON.parse(missing.text).error).toMatchObject({ code: 23 });
    await closeCleanly(t);
  });

  test("write tools are refused without --allow-writes, before any request", async () => {
    const s = await session();
    const r = await call(s, "issue_note", { issue: "acme/WEB-1", text: "hi" });
    expect(r.isError).toBe(true);
    expect(JSON.parse(r.text).error).toMatchObject({
      code: 2,
      hint: "Start the server with: tracker mcp --allow-writes",
    });
    await closeCleanly(s);
    expect(api.requests).toEqual([]);
  });

  test("protocol errors: malformed JSON, an invalid request, an unknown tool, bad arguments; the server stays up", async () => {
    const s = await session();
    s.writeRaw("this is not json\n");
    expect((await s.nextAnonymous()).error?.code).toBe(-32700);
    s.writeRaw(`${JSON.stringify({ jsonrpc: "1.0", id: 99, method: 5 })}\n`);
    expect((await s.answerFor(99)).error?.code).toBe(-32600);
    const alive = await s.request("ping");
    expect(alive.result).toEqual({});
    const unknownTool = await s.request("tools/call", { name: "nope", arguments: {} });
    expect(unknownTool.error?.code).toBe(-32602);
    // Invalid arguments are tool results the model can read and correct (MCP 2025-11-25), said once.
    const badArgs = await call(s, "issue_list", { limit: "ten" });
    expect(badArgs.isError).toBe(true);
    expect(JSON.parse(badArgs.text).error).toEqual({
      class: "ValidationError",
      code: 21,
      message: "issue_list: 'limit' must be integer",
    });
    const extra = await call(s, "issue_view", { issue: "X-1", bogus: 1 });
    expect(extra.isError).toBe(true);
    expect(JSON.parse(extra.text).error.message).toStartWith("issue_view: unknown argument 'bogus'");
    const unknownMethod = await s.request("resources/list");
    expect(unknownMethod.error?.code).toBe(-32601);
    await closeCleanly(s);
    expect(api.requests).toEqual([]);
  });

  test("stdin closed right after the requests: every answer is sent, then exit 0", async () => {
    const s = startMcp([], { api, token: USER_TOKEN });
    const init = s.request("initialize", initializeParams());
    const orgs = s.request("tools/call", { name: "org_list", arguments: {} });
    const closed = s.close();
    expect((await init).result?.serverInfo).toMatchObject({ name: "tracker" });
    expect((await orgs).result?.isError).toBeUndefined();
    expect((await closed).exitCode).toBe(0);
  });
});

describe("tracker mcp --print-config", () => {
  test("prints the client configuration with an absolute command", async () => {
    const r = await runCli(["mcp", "acme/", "--allow-writes", "--print-config"]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    const cfg = JSON.parse(r.stdout).mcpServers.tracker as { command: string; args: string[] };
    expect(cfg.command).toStartWith("/");
    expect(cfg.args.slice(-3)).toEqual(["mcp", "acme/", "--allow-writes"]);
  });

  test("cli setup points MCP clients at --print-config (stderr, human mode only)", async () => {
    const home = tempDir("tracker-mcp-home-");
    try {
      const r = await runCli(["cli", "setup", "--no-modify-path"], {
        env: { HOME: home, SHELL: "/bin/bash" },
      });
      expect(r.exitCode).toBe(0);
      expect(r.stderr).toContain("tracker mcp --print-config");
      expect(r.stdout).not.toContain("--print-config");
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  test("a bare project slug is refused as the pinned target", async () => {
    const r = await runCli(["mcp", "web"]);
    expect(r.exitCode).toBe(21);
    expect(r.stderr).toStartWith("Error: tracker mcp needs <org>/<project> or <org>/");
  });
});
