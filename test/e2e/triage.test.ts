import { describe, expect, test } from "bun:test";
import { faults } from "../fake-api/http.ts";
import { findIssue } from "../fake-api/routes/issues.ts";
import { READ_ONLY_TOKEN, USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const run = (args: string[], opts: { stdin?: string; token?: string } = {}) =>
  runCli(args, { api, token: opts.token ?? USER_TOKEN, stdin: opts.stdin });
const writes = () =>
  api.requests
    .filter((r) => r.method !== "GET")
    .map((r) => ({
      method: r.method,
      host: r.host,
      path: r.path,
      ids: r.query.getAll("id"),
      body: r.body ? JSON.parse(r.body) : undefined,
    }));

describe("issue resolve / unresolve / archive", () => {
  test("one issue: one PUT to its own endpoint in the org's region, a line and a summary", async () => {
    const r = await run(["issue", "resolve", "acme/WEB-4Y"]);
    expect(r).toEqual({ exitCode: 0, stdout: "WEB-4Y resolved\n", stderr: "" });
    expect(writes()).toEqual([
      {
        method: "PUT",
        host: "us",
        path: "/api/0/organizations/acme/issues/4158/",
        ids: [],
        body: { status: "resolved" },
      },
    ]);
    expect(findIssue(api.state, "4158")?.status).toBe("resolved");
  });

  test("several issues, human: a line each on stdout (the data), the count on stderr only for a terminal", async () => {
    const piped = await run(["issue", "resolve", "acme/WEB-4Y", "acme/WEB-51"]);
    expect(piped).toEqual({ exitCode: 0, stdout: "WEB-4Y resolved\nWEB-51 resolved\n", stderr: "" });
    const watched = await runCli(["issue", "unresolve", "acme/WEB-4Y", "acme/WEB-51", "--dry-run"], {
      api,
      token: USER_TOKEN,
      terminal: { stderr: true },
      env: { NO_COLOR: "1" },
    });
    expect(watched.exitCode).toBe(0);
    expect(watched.stdout).toBe("WEB-4Y would be reopened\nWEB-51 would be reopened\n");
    expect(watched.stderr).toBe("Dry run: 2 issues would be reopened.\n");
  });

  test("several issues of one org: one bulk PUT with explicit ids; --in names the release", async () => {
    const r = await run(["issue", "resolve", "acme/WEB-4Y", "acme/WEB-51", "--in", "web@1.5.0", "--json"]);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.dryRun).toBe(false);
    expect(doc.failed).toEqual([]);
    expect(doc.changed.map((i: { shortId: string; status: string }) => [i.shortId, i.status])).toEqual([
      ["WEB-4Y", "resolved"],
      ["WEB-51", "resolved"],
    ]);
    expect(writes()).toEqual([
      {
        method: "PUT",
        host: "us",
        path: "/api/0/organizations/acme/issues/",
        ids: ["4158", "4161"],
        body: { status: "resolved", statusDetails: { inRelease: "web@1.5.0" } },
      },
    ]);
  });

  test("a release that does not exist: named, with where to look (exit 23)", async () => {
    const r = await run(["issue", "resolve", "acme/WEB-4Y", "--in", "web@9.9.9"]);
    expect(r.exitCode).toBe(23);
    expect(r.stdout).toBe("");
    expect(r.stderr).toStartWith("Error: Release web@9.9.9 was not found in acme.\n");
  });

  test("without event:write: 403 naming the scopes", async () => {
    const r = await run(["issue", "unresolve", "acme/WEB-4Y"], { token: READ_ONLY_TOKEN });
    expect(r.exitCode).toBe(30);
    expect(r.stderr).toContain("event:write");
  });

  test("reopen and ignore are aliases; archive conditions become the API's statusDetails", async () => {
    expect((await run(["issue", "reopen", "acme/WEB-4Y"])).stdout).toBe("WEB-4Y reopened\n");
    await run(["issue", "ignore", "acme/WEB-4Y"]);
    await run(["issue", "archive", "acme/WEB-4Y", "--for", "2h"]);
    await run(["issue", "archive", "acme/WEB-4Y", "--count", "100/1h"]);
    await run(["issue", "archive", "acme/WEB-4Y", "--users", "10"]);
    await run(["issue", "archive", "acme/WEB-4Y", "--forever"]);
    expect(writes().map((w) => w.body)).toEqual([
      { status: "unresolved", substatus: "ongoing" },
      {
        status: "ignored",
        substatus: "archived_until_escalating",
        statusDetails: { ignoreUntilEscalating: true },
      },
      {
        status: "ignored",
        substatus: "archived_until_condition_met",
        statusDetails: { ignoreDuration: 120 },
      },
      {
        status: "ignored",
        substatus: "archived_until_condition_met",
        statusDetails: { ignoreCount: 100, ignoreWindow: 60 },
      },
      {
        status: "ignored",
        substatus: "archived_until_condition_met",
        statusDetails: { ignoreUserCount: 10 },
      },
      { status: "ignored", substatus: "archived_forever", statusDetails: {} },
    ]);
    expect(findIssue(api.state, "4158")?.substatus).toBe("archived_forever");
  });

  test("bad archive conditions are validation errors before any request", async () => {
    const both = await run(["issue", "archive", "acme/WEB-4Y", "--for", "2h", "--forever"]);
    expect(both.exitCode).toBe(21);
    const bad = await run(["issue", "archive", "acme/WEB-4Y", "--for", "soon"]);
    expect(bad.exitCode).toBe(21);
    expect(bad.stderr).toStartWith("Error: --for must be <number><unit>");
    expect(api.requests).toEqual([]);
  });

  test("--dry-run prints exactly what would change and sends nothing that changes state", async () => {
    const before = findIssue(api.state, "4158")?.status;
    const r = await run(["issue", "resolve", "acme/WEB-4Y", "--in", "web@1.5.0", "--dry-run", "--json"]);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.dryRun).toBe(true);
    expect(doc.changed[0]).toMatchObject({
      shortId: "WEB-4Y",
      status: "resolved",
      statusDetails: { inRelease: "web@1.5.0" },
    });
    const human = await run(["issue", "archive", "acme/WEB-4Y", "--dry-run"]);
    expect(human.stdout).toBe("WEB-4Y would be archived until it escalates\n");
    expect(writes()).toEqual([]);
    expect(String(findIssue(api.state, "4158")?.status)).toBe(String(before));
  });

  test("- reads references from stdin, one per line; exactly those issues change", async () => {
    const r = await run(["issue", "resolve", "-"], {
      stdin: "acme/WEB-1\n\n# a comment\nacme/WEB-2\nacme/WEB-1\n",
    });
    expect(r.exitCode).toBe(0);
    expect(writes()).toEqual([
      {
        method: "PUT",
        host: "us",
        path: "/api/0/organizations/acme/issues/",
        ids: ["4001", "4002"],
        body: { status: "resolved" },
      },
    ]);
  });

  test("issues of two organizations: one request per organization, each in its region", async () => {
    const r = await run(["issue", "resolve", "acme/WEB-1", "globex/WEB-1"]);
    expect(r.exitCode).toBe(0);
    expect(
      writes()
        .map((w) => `${w.host} ${w.path}`)
        .sort(),
    ).toEqual(["de /api/0/organizations/globex/issues/5676/", "us /api/0/organizations/acme/issues/4001/"]);
  });

  test("partial failure: what changed is reported, the missing one named, exit code of the failure", async () => {
    const r = await run(["issue", "resolve", "acme/WEB-1", "acme/NOPE-1", "--json"]);
    expect(r.exitCode).toBe(23);
    const doc = JSON.parse(r.stdout);
    expect(doc.changed.map((i: { shortId: string }) => i.shortId)).toEqual(["WEB-1"]);
    expect(doc.failed).toEqual([
      { issue: "acme/NOPE-1", error: { class: "ResolutionError", code: 23, message: expect.any(String) } },
    ]);
    expect(JSON.parse(r.stderr).error.message).toStartWith("1 of 2 issues could not be changed: acme/NOPE-1");
  });

  test("a single unknown issue fails like issue view, nothing on stdout", async () => {
    const r = await run(["issue", "resolve", "acme/NOPE-1"]);
    expect(r.exitCode).toBe(23);
    expect(r.stdout).toBe("");
    expect(writes()).toEqual([]);
  });

  test("writes are not retried on a 5xx, but are on 429 with Retry-After (the server did not act)", async () => {
    api.inject(faults.internalError(undefined, { method: "PUT" }));
    const a = await run(["issue", "resolve", "acme/WEB-1"]);
    expect(a.exitCode).toBe(30);
    expect(writes()).toHaveLength(1);
    api.reset();
    api.inject(faults.rateLimited({ retryAfter: "0" }, { method: "PUT" }));
    const b = await run(["issue", "resolve", "acme/WEB-1"]);
    expect(b.exitCode).toBe(0);
    expect(writes()).toHaveLength(2);
  });
});

describe("bulk by query", () => {
  test("non-TTY without --yes: lists the matches, refuses, sends no PUT", async () => {
    const r = await run(["issue", "resolve", "--query", "level:info", "acme/web", "-n", "3"]);
    expect(r.exitCode).toBe(21);
    expect(r.stdout).toBe("");
    // More than 3 match: the notice says how many, and that only the first 3 would change.
    expect(r.stderr).toMatch(/^\d+ issues match; changing the first 3 \(raise -n, at most 1,000\)\n {2}WEB-/);
    expect(r.stderr).toContain("add --yes (or --dry-run to preview)");
    expect(writes()).toEqual([]);
  });

  test("--yes changes exactly the issues the listing returned", async () => {
    const r = await run(["issue", "archive", "-q", "level:info", "acme/web", "-n", "3", "--yes", "--json"]);
    expect(r.exitCode).toBe(0);
    const listing = api.requestsTo("/api/0/organizations/acme/issues/", "GET");
    expect(listing).toHaveLength(1);
    expect(listing[0]?.query.get("query")).toBe("level:info");
    const changed = JSON.parse(r.stdout).changed.map((i: { id: string }) => i.id);
    expect(changed).toHaveLength(3);
    expect(writes()).toEqual([
      {
        method: "PUT",
        host: "us",
        path: "/api/0/organizations/acme/issues/",
        ids: changed,
        body: {
          status: "ignored",
          substatus: "archived_until_escalating",
          statusDetails: { ignoreUntilEscalating: true },
        },
      },
    ]);
  });

  test("<org>/ covers every project; --dry-run still lists and sends nothing", async () => {
    const r = await run(["issue", "resolve", "-q", "level:fatal", "acme/", "-n", "5", "--dry-run"]);
    expect(r.exitCode).toBe(0);
    expect(api.requestsTo("/api/0/organizations/acme/issues/", "GET")[0]?.query.getAll("project")).toEqual([
      "-1",
    ]);
    const lines = r.stdout.trim().split("\n");
    expect(lines).toHaveLength(5);
    for (const line of lines) expect(line).toMatch(/^[A-Z-]+-[0-9A-Z]+ would be resolved$/);
    expect(writes()).toEqual([]);
  });
});

describe("issue assign and note", () => {
  test("me, a username, #team and --none become the API's assignedTo", async () => {
    await run(["issue", "assign", "acme/WEB-4Y", "me"]);
    await run(["issue", "assign", "acme/WEB-4Y", "jane@example.com"]);
    const team = await run(["issue", "assign", "acme/WEB-4Y", "#backend"]);
    expect(team.stdout).toBe("WEB-4Y assigned to #backend\n");
    await run(["issue", "assign", "acme/WEB-4Y", "--none"]);
    expect(writes().map((w) => w.body)).toEqual([
      { assignedTo: "user:12345" },
      { assignedTo: "jane@example.com" },
      { assignedTo: "team:200002" },
      { assignedTo: null },
    ]);
    expect(findIssue(api.state, "4158")?.assignedTo).toBeNull();
  });

  test("an unknown team names the teams; an unknown user is the API's 400", async () => {
    const t = await run(["issue", "assign", "acme/WEB-4Y", "#nope"]);
    expect(t.exitCode).toBe(23);
    expect(t.stderr).toContain("#frontend, #backend");
    const u = await run(["issue", "assign", "acme/WEB-4Y", "nobody"]);
    expect(u.exitCode).toBe(30);
    expect(u.stderr).toContain("assignedTo: Unknown actor input");
  });

  test("note: text from the argument or stdin; --json is the created note", async () => {
    const r = await run(["issue", "note", "acme/WEB-4Y", "Fixed by #1234", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      type: "note",
      data: { text: "Fixed by #1234" },
      user: { id: "12345" },
    });
    const s = await run(["issue", "note", "acme/WEB-4Y", "-"], { stdin: "from stdin\n" });
    expect(s.stdout).toBe("Added a note to WEB-4Y (acme).\n");
    expect(writes()).toEqual([
      {
        method: "POST",
        host: "us",
        path: "/api/0/organizations/acme/issues/4158/comments/",
        ids: [],
        body: { text: "Fixed by #1234" },
      },
      {
        method: "POST",
        host: "us",
        path: "/api/0/organizations/acme/issues/4158/comments/",
        ids: [],
        body: { text: "from stdin" },
      },
    ]);
    const dry = await run(["issue", "note", "acme/WEB-4Y", "draft", "--dry-run"]);
    expect(dry.exitCode).toBe(0);
    expect(writes()).toHaveLength(2);
  });
});
