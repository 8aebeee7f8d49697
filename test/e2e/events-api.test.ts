import { describe, expect, test } from "bun:test";
import { eventIdOf } from "../fake-api/routes/triage.ts";
import { findIssue } from "../fake-api/routes/issues.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { type RunOptions, runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const run = (args: string[], opts: Omit<RunOptions, "api" | "token"> = {}) =>
  runCli(args, { api, token: USER_TOKEN, ...opts });
const issue = () => findIssue(api.state, "4158") as NonNullable<ReturnType<typeof findIssue>>;

describe("issue events", () => {
  test("pages at 100 per request up to -n; the cursor continues with -c last", async () => {
    const configDir = tempDir("tracker-cfg-");
    const r = await run(["issue", "events", "acme/WEB-4Y", "-n", "120", "--json"], { configDir });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.data).toHaveLength(120);
    expect(doc.hasMore).toBe(true);
    const calls = api.requestsTo("/api/0/organizations/acme/issues/4158/events/");
    expect(calls.map((c) => [c.query.get("per_page"), c.query.get("cursor")])).toEqual([
      ["100", null],
      ["20", "0:100:0"],
    ]);
    expect(doc.data[0].eventID).toBe(eventIdOf(issue(), 0));
    const next = await run(["issue", "events", "acme/WEB-4Y", "-n", "10", "-c", "last", "--json"], {
      configDir,
    });
    expect(JSON.parse(next.stdout).data[0].eventID).toBe(eventIdOf(issue(), 120));
  });

  test("terminal: table with the event ids and relative times, and the next-page tip on stderr", async () => {
    const r = await run(["issue", "events", "acme/WEB-4Y", "-n", "2"], {
      terminal: { stdout: true, stderr: true },
      env: { NO_COLOR: "1" },
    });
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^EVENT ID\s+TIMESTAMP\s+ENV\s+RELEASE\s+MESSAGE$/);
    expect(lines[1]).toMatch(new RegExp(`^${eventIdOf(issue(), 0)}\\s+\\d+(m|h|d|mo|y) ago\\s`));
    expect(r.stderr).toContain("tracker issue events acme/WEB-4Y -c last");
  });

  test("piped: one tab-separated row per event with its RFC 3339 time; no header, no tips", async () => {
    const r = await run(["issue", "events", "acme/WEB-4Y", "-n", "2"]);
    expect(r.exitCode).toBe(0);
    const rows = r.stdout
      .trimEnd()
      .split("\n")
      .map((l) => l.split("\t"));
    expect(rows).toHaveLength(2);
    expect(rows.map((cells) => cells.length)).toEqual([5, 5]);
    expect(rows[0]?.[0]).toBe(eventIdOf(issue(), 0));
    expect(rows[0]?.[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(r.stderr).toBe("");
  });

  test("-c last after the last page of events: an empty page and exit 0, with no request", async () => {
    const configDir = tempDir();
    const all = await run(["issue", "events", "acme/WEB-4Y", "-n", "1000", "--json"], { configDir });
    expect(JSON.parse(all.stdout).hasMore).toBe(false);
    api.reset();
    const past = await run(["issue", "events", "acme/WEB-4Y", "-c", "last", "--json"], { configDir });
    expect(past.exitCode).toBe(0);
    expect(JSON.parse(past.stdout)).toEqual({ data: [], hasMore: false });
    expect(api.requestsTo("/api/0/organizations/acme/issues/4158/events/")).toEqual([]);
  });

  test("--full asks for stack traces; request cookies and Authorization never reach the output", async () => {
    const r = await run(["issue", "events", "acme/WEB-4Y", "-n", "3", "--full", "--json"]);
    expect(api.requestsTo("/api/0/organizations/acme/issues/4158/events/")[0]?.query.get("full")).toBe(
      "true",
    );
    expect(r.stdout).toContain('"breadcrumbs"');
    expect(r.stdout).not.toContain("s3cr3t-session");
    expect(r.stdout).not.toContain("live-user-token");
  });
});

describe("event view", () => {
  const id = () => eventIdOf(issue(), 2);

  test("<org>/<project>/<event-id>: exception, in-app frames with context, tags, last 20 breadcrumbs, contexts", async () => {
    const r = await run(["event", "view", `acme/web/${id()}`]);
    expect(r.exitCode).toBe(0);
    expect(api.requests.map((q) => q.path).filter((p) => p.includes("event"))).toEqual([
      `/api/0/projects/acme/web/events/${id()}/`,
    ]);
    const out = r.stdout;
    expect(out).toStartWith(`Event ${id()} (acme/web)\n`);
    expect(out).toContain("\nException\n  DatabaseError: ");
    expect(out).toContain(
      "In-app frames (most recent call first)\n  at connectDb (app/web/module3.js:42:7)\n    >    42 | return items.map(f);",
    );
    expect(out).not.toContain("react-dom");
    expect(out).toContain("Breadcrumbs (last 20 of 30)");
    expect(out).not.toContain("step 10\n");
    expect(out).toContain("step 30");
    expect(out).toContain("  browser: name=Chrome version=131.0");
    expect(out).not.toContain("s3cr3t");
    expect(out).not.toContain("live-user-token");
  });

  test("an id alone with an org: looked up with eventids; --json is the event, scrubbed", async () => {
    const r = await run(["event", "view", id().toUpperCase(), "acme/", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(api.requests.map((q) => q.path).filter((p) => p.includes("event"))).toEqual([
      `/api/0/organizations/acme/eventids/${id()}/`,
    ]);
    const doc = JSON.parse(r.stdout);
    expect(doc.eventID).toBe(id());
    const request = doc.entries.find((e: { type: string }) => e.type === "request");
    expect(request.data.cookies).toBe("[Filtered]");
    expect(request.data.headers).toContainEqual(["Authorization", "[Filtered]"]);
    expect(request.data.headers).toContainEqual(["User-Agent", "Mozilla/5.0"]);
  });

  test("an event URL", async () => {
    const r = await run([
      "event",
      "view",
      `https://acme.sentry.io/issues/4158/events/${id()}/?project=300001`,
      "--json",
    ]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).eventID).toBe(id());
  });

  test("malformed and unknown ids", async () => {
    const bad = await run(["event", "view", "xyz", "acme/web"]);
    expect(bad.exitCode).toBe(21);
    expect(bad.stderr).toBe(
      "Error: Invalid event ID 'xyz': expected 32 hexadecimal characters (dashes of the UUID form allowed).\n",
    );
    const missing = await run(["event", "view", "0".repeat(32), "acme/web"]);
    expect(missing.exitCode).toBe(23);
    expect(missing.stderr).toStartWith(`Error: Event ${"0".repeat(32)} was not found in acme/web.`);
  });
});

describe("tracker api", () => {
  test("GET a control-silo path; the body is printed as the server sent it", async () => {
    const r = await run(["api", "/api/0/organizations/"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).map((o: { slug: string }) => o.slug)).toEqual(["acme", "globex", "initech"]);
    expect(api.requests.map((q) => `${q.host} ${q.method} ${q.path}`)).toEqual([
      "control GET /api/0/organizations/",
    ]);
  });

  test("organization paths go to the org's region; {org} comes from the context", async () => {
    const r = await run(["api", "organizations/{org}/projects"], { env: { TRACKER_ORG: "globex" } });
    expect(r.exitCode).toBe(0);
    expect(api.requests.map((q) => `${q.host} ${q.path}`)).toContain(
      "de /api/0/organizations/globex/projects/",
    );
  });

  test("-F is typed, -f is a string; fields make a POST/PUT body or, with -X GET, query parameters", async () => {
    await run([
      "api",
      "-X",
      "PUT",
      "organizations/acme/issues/4001/",
      "-F",
      "hasSeen=true",
      "-f",
      "status=resolved",
    ]);
    const put = api.requests.find((q) => q.method === "PUT");
    expect(JSON.parse(put?.body ?? "")).toEqual({ hasSeen: true, status: "resolved" });
    await run(["api", "-X", "GET", "organizations/acme/issues/", "-f", "query=level:fatal", "-F", "limit=2"]);
    const get = api.requestsTo("/api/0/organizations/acme/issues/", "GET")[0];
    expect([get?.query.get("query"), get?.query.get("limit")]).toEqual(["level:fatal", "2"]);
  });

  test("--paginate follows the Link cursor and prints one array", async () => {
    const r = await run(["api", "organizations/acme/issues/4158/events/", "--paginate"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(150);
    expect(api.requestsTo("/api/0/organizations/acme/issues/4158/events/")).toHaveLength(2);
  });

  test("an error status still prints the body, then exits with the API error's code; --include shows the status", async () => {
    const r = await run([
      "api",
      "-X",
      "PUT",
      "organizations/acme/issues/4001/",
      "-f",
      "status=bogus",
      "--include",
    ]);
    expect(r.exitCode).toBe(30);
    expect(r.stdout).toStartWith("HTTP 400\n");
    expect(r.stdout).toContain('{"status":["\\"bogus\\" is not a valid choice."]}');
    expect(r.stderr).toContain('status: "bogus" is not a valid choice.');
  });

  test("a URL is refused: the token is only sent to the service", async () => {
    const r = await run(["api", "https://evil.example/api/0/organizations/"]);
    expect(r.exitCode).toBe(21);
    expect(api.requests).toEqual([]);
  });
});

describe("tracker api output stays valid JSON", () => {
  test("a body with raw C1 characters in a string is escaped, not mangled by the sanitiser", async () => {
    api.inject({
      path: "/api/0/organizations/",
      status: 200,
      raw: '[{"slug":"a\u009bb"}]',
      headers: { "Content-Type": "application/json" },
    });
    const r = await run(["api", "organizations/"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ slug: "a\u009bb" }]);
  });
});
