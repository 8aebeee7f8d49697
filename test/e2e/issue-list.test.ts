import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { type RunOptions, runCli, tempDir } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();

const IssueSchema = v.strictObject({
  id: v.pipe(v.string(), v.regex(/^\d+$/)),
  shortId: v.string(),
  title: v.string(),
  culprit: v.string(),
  permalink: v.string(),
  level: v.string(),
  status: v.string(),
  isUnhandled: v.boolean(),
  count: v.number(),
  userCount: v.number(),
  firstSeen: v.nullable(v.string()),
  lastSeen: v.nullable(v.string()),
  project: v.strictObject({
    id: v.optional(v.string()),
    slug: v.string(),
    name: v.string(),
    platform: v.optional(v.string()),
  }),
  org: v.string(),
  alias: v.optional(v.string()),
});
const PageSchema = v.strictObject({
  data: v.array(IssueSchema),
  hasMore: v.boolean(),
  nextCursor: v.optional(v.string()),
  total: v.optional(v.number()),
});

const issueCalls = () => api.requestsTo("/api/0/organizations/acme/issues/");
const sizes = () => issueCalls().map((r) => Number(r.query.get("limit")));

async function list(args: string[], configDir?: string, terminal?: RunOptions["terminal"]) {
  return runCli(["issue", "list", ...args], {
    api,
    token: USER_TOKEN,
    ...(configDir ? { configDir } : {}),
    // On a terminal, NO_COLOR keeps the golden text free of styling.
    ...(terminal ? { terminal, env: { NO_COLOR: "1" } } : {}),
  });
}

describe("issue list paging", () => {
  for (const [limit, expected] of [
    [1, [1]],
    [25, [25]],
    [100, [100]],
    [101, [100, 1]],
    [250, [100, 100, 50]],
    [1000, [100, 100, 100, 100, 100, 100, 100, 100, 100, 100]],
  ] as const) {
    test(`-n ${limit} asks for ${expected.join(", ")}`, async () => {
      const r = await list(["acme/web", "-n", String(limit), "--json"]);
      expect(r.stderr).toBe("");
      expect(r.exitCode).toBe(0);
      const page = v.parse(PageSchema, JSON.parse(r.stdout));
      expect(page.data).toHaveLength(limit);
      expect(page.hasMore).toBe(true);
      expect(page.nextCursor).toBe(`0:${limit}:0`);
      expect(sizes()).toEqual([...expected]);
      const first = issueCalls()[0];
      expect(first?.host).toBe("us");
      expect(first?.query.getAll("project")).toEqual(["300001"]);
      expect(first?.query.get("sort")).toBe("date");
      expect(first?.query.get("statsPeriod")).toBe("90d");
      // Omitted query: the server applies is:unresolved.
      expect(first?.query.has("query")).toBe(false);
      expect(new Set(page.data.map((i) => i.id)).size).toBe(limit);
    });
  }

  test("the end of the results: hasMore false, no nextCursor, one short request", async () => {
    const r = await list(["acme/worker", "-n", "100", "--json"]);
    expect(r.exitCode).toBe(0);
    const page = v.parse(PageSchema, JSON.parse(r.stdout));
    expect(page.hasMore).toBe(false);
    expect("nextCursor" in page).toBe(false);
    // acme/worker has 15 seeded issues, all unresolved and recent.
    expect(page.data).toHaveLength(15);
    expect(api.requestsTo("/api/0/organizations/acme/issues/")).toHaveLength(1);
  });

  test("empty results are one JSON document too", async () => {
    const r = await runCli(["issue", "list", "initech/tps-reports", "--json"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ data: [], hasMore: false, total: 0 });
    expect(r.stderr).toBe("");
  });

  test("empty results in human mode: nothing on stdout, a note on stderr", async () => {
    const r = await runCli(["issue", "list", "initech/tps-reports"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("No issues found. Issues in initech/tps-reports");
  });
});

describe("issue list flags", () => {
  test("sort, period and query are sent as given; results follow them", async () => {
    const r = await list(["acme/web", "-s", "freq", "-t", "2w", "-q", "level:fatal", "-n", "30", "--json"]);
    expect(r.exitCode).toBe(0);
    const page = v.parse(PageSchema, JSON.parse(r.stdout));
    expect(page.data.every((i) => i.level === "fatal")).toBe(true);
    const counts = page.data.map((i) => i.count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const q = issueCalls()[0]?.query;
    expect([q?.get("sort"), q?.get("statsPeriod"), q?.get("query")]).toEqual(["freq", "2w", "level:fatal"]);
  });

  test("long flag names work too", async () => {
    const r = await list([
      "acme/web",
      "--sort",
      "new",
      "--period",
      "24h",
      "--limit",
      "3",
      "--query",
      "is:unresolved",
      "--json",
    ]);
    expect(r.exitCode).toBe(0);
    expect(v.parse(PageSchema, JSON.parse(r.stdout)).data).toHaveLength(3);
    expect(issueCalls()[0]?.query.get("sort")).toBe("new");
  });

  for (const [args, pattern] of [
    [["-n", "0"], /--limit must be from 1 to 1000, got 0/],
    [["-n", "1001"], /--limit must be from 1 to 1000, got 1001/],
    [["-n", "abc"], /--limit must be a whole number from 1 to 1000/],
    [["-t", "90x"], /--period must be a duration \(30m, 24h, 14d, 2w\) or a window/],
    [["-t", "0d"], /--period must be/],
    [["-c", "bogus"], /--cursor must be 'last' or a cursor like 0:100:0/],
  ] as const) {
    test(`bad value ${args.join(" ")} → exit 21, no request`, async () => {
      const r = await list(["acme/web", ...args]);
      expect(r.exitCode).toBe(21);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(pattern);
      expect(api.requests).toEqual([]);
    });
  }

  test("bad --sort names the allowed values (a bad flag value: exit 21)", async () => {
    const r = await list(["acme/web", "-s", "loudest"]);
    expect(r.exitCode).toBe(21);
    expect(r.stderr).toMatch(/date.*new.*freq.*user/);
    expect(api.requests).toEqual([]);
  });

  test("a query the server cannot parse is an ApiError: the status, then its reason indented", async () => {
    const r = await list(["acme/web", "-q", 'title:"unterminated']);
    expect(r.exitCode).toBe(30);
    expect(r.stdout).toBe("");
    expect(r.stderr).toStartWith(
      'Error: Request failed with status 400\n  Invalid search query: Expected """ but end of input found.\n\nCheck the search query',
    );
  });

  test("a malformed target is a ValidationError", async () => {
    const r = await list(["a/b/c"]);
    expect(r.exitCode).toBe(21);
    expect(r.stderr).toContain("Invalid target 'a/b/c'");
  });

  test("an unknown project is a ResolutionError pointing at project list", async () => {
    const r = await list(["acme/nope"]);
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toBe(
      "Error: Project 'acme/nope' was not found.\n\nRun `tracker project list acme` to see its projects.\n",
    );
  });
});

describe("issue list cursors", () => {
  test("-c last continues after the previous page; a changed sort/query/period starts over", async () => {
    const configDir = tempDir();
    const a = await list(["acme/web", "-n", "30", "--json"], configDir);
    const first = v.parse(PageSchema, JSON.parse(a.stdout));
    api.reset();
    const b = await list(["acme/web", "-n", "30", "-c", "last", "--json"], configDir);
    expect(b.exitCode).toBe(0);
    const second = v.parse(PageSchema, JSON.parse(b.stdout));
    expect(issueCalls()[0]?.query.get("cursor")).toBe("0:30:0");
    expect(second.data[0]?.id).not.toBe(first.data[0]?.id);
    expect(second.nextCursor).toBe("0:60:0");
    // A listing with other flags keeps its own position; -c last for it fails clearly.
    api.reset();
    const c = await list(["acme/web", "-s", "freq", "-c", "last"], configDir);
    expect(c.exitCode).toBe(21);
    expect(c.stderr).toContain("a different sort, query or period starts again at the first page");
    expect(api.requestsTo(/issues/)).toEqual([]);
    // The original sort continues where it stopped.
    const d = await list(["acme/web", "-n", "5", "-c", "last", "--json"], configDir);
    expect(v.parse(PageSchema, JSON.parse(d.stdout)).nextCursor).toBe("0:65:0");
  });

  test("an explicit cursor is sent as is", async () => {
    const r = await list(["acme/web", "-n", "10", "-c", "0:200:0", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(issueCalls()[0]?.query.get("cursor")).toBe("0:200:0");
    expect(v.parse(PageSchema, JSON.parse(r.stdout)).nextCursor).toBe("0:210:0");
  });

  test("-c last after the last page: an empty page and exit 0, with no request", async () => {
    const configDir = tempDir();
    await list(["acme/worker", "-n", "100"], configDir);
    api.reset();
    const json = await list(["acme/worker", "-c", "last", "--json"], configDir);
    expect(json).toEqual({
      exitCode: 0,
      stdout: `${JSON.stringify({ data: [], hasMore: false })}\n`,
      stderr: "",
    });
    expect(issueCalls()).toEqual([]);
    const human = await list(["acme/worker", "-c", "last"], configDir);
    expect(human.exitCode).toBe(0);
    expect(human.stdout).toBe("");
    expect(human.stderr).toStartWith("No more issues. Issues in acme/worker (");
    // A listing never shown with these flags is still an error: there is nothing to continue.
    const other = await list(["acme/worker", "-c", "last", "-s", "freq"], configDir);
    expect(other.exitCode).toBe(21);
  });
});

describe("issue list org-wide", () => {
  test("<org>/ makes one org-scoped query over every accessible project, with aliases", async () => {
    const r = await list(["acme/", "-n", "50", "--json"]);
    expect(r.exitCode).toBe(0);
    const page = v.parse(PageSchema, JSON.parse(r.stdout));
    expect(issueCalls().map((c) => c.query.getAll("project"))).toEqual([["-1"]]);
    const slugs = new Set(page.data.map((i) => i.project.slug));
    // worker is not a member project: only project=-1 shows it.
    expect(slugs.has("worker")).toBe(true);
    const aliasOf = Object.fromEntries(page.data.map((i) => [i.project.slug, i.alias]));
    expect(aliasOf).toMatchObject({ web: "we", worker: "wo", api: "a", "mobile-app": "m" });
  });

  test("human output has the ALIAS column and an alias tip; the alias works in issue view", async () => {
    const configDir = tempDir();
    const r = await list(["acme/", "-n", "5"], configDir, { stdout: true, stderr: true });
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toBe("Issues in all projects of acme (is:unresolved, sorted by last seen, last 90d):");
    // The header names the service's count of matches (X-Hits).
    expect(lines[1]).toMatch(/^Showing 5 of [\d,]+\.$/);
    expect(lines[3]).toMatch(/^ALIAS\s+ID\s+LEVEL\s+TITLE\s+EVENTS\s+USERS\s+LAST SEEN$/);
    expect(r.stderr).toContain("Tip: view an issue by alias and suffix, e.g. tracker issue view ");
    // Piped, the short ID is the first tab-separated field of each row, the alias the second.
    const piped = await list(["acme/", "-n", "5"], configDir);
    expect(piped.stdout.split("\n")[0]?.split("\t").slice(0, 2)).toEqual(["MOBILE-APP-1", "m"]);
    const v1 = await runCli(["issue", "view", "we-1", "--json"], { api, token: USER_TOKEN, configDir });
    expect(v1.exitCode).toBe(0);
    expect(JSON.parse(v1.stdout).shortId).toBe("WEB-1");
  });
});

describe("issue list human output", () => {
  const TITLE = "Issues in acme/web (is:unresolved, sorted by last seen, last 90d):\nShowing 3 of 1,282.";
  const TIPS =
    "Tip: tracker issue view WEB-1 shows an issue with its latest event.\nShowing 3 of 1,282; more exist. Next page: repeat the command with -c last, or show more at once with -n (up to 1000).\n";

  test("piped: one tab-separated row per issue, RFC 3339 times, nothing else anywhere (golden)", async () => {
    const r = await list(["acme/web", "-n", "3"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      [
        "WEB-1\tfatal\tReferenceError: user is not defined\t1805\t951\t2026-01-15T11:55:59Z",
        "WEB-2\tdebug\tError: Request failed with status code 500\t1720\t1319\t2026-01-15T11:17:59Z",
        "WEB-3\terror\tZeroDivisionError: division by zero\t2991\t410\t2026-01-15T11:03:59Z",
        "",
      ].join("\n"),
    );
    expect(r.stderr).toBe("");
    // --sort new adds the sort key (FIRST SEEN) before LAST SEEN.
    const byNew = await list(["acme/web", "-n", "1", "-s", "new"]);
    expect(byNew.stdout.trimEnd().split("\t")).toHaveLength(7);
  });

  test("piped while stderr is a terminal: the title and tips go to stderr for the person watching", async () => {
    const r = await list(["acme/web", "-n", "3"], undefined, { stderr: true });
    expect(r.stdout.split("\n")[0]).toStartWith("WEB-1\tfatal\t");
    expect(r.stderr).toBe(`${TITLE}\n${TIPS}`);
  });

  test("terminal: title, blank line, aligned table with relative times; tips on stderr", async () => {
    const r = await list(["acme/web", "-n", "3"], undefined, { stdout: true, stderr: true });
    const lines = r.stdout.trimEnd().split("\n");
    expect(`${lines[0]}\n${lines[1]}`).toBe(TITLE);
    expect(lines[2]).toBe("");
    expect(lines[3]).toMatch(/^ID\s+LEVEL\s+TITLE\s+EVENTS\s+USERS\s+LAST SEEN$/);
    expect(lines).toHaveLength(7);
    expect(lines[4]).toMatch(
      /^WEB-1\s+fatal\s+ReferenceError: user is not defined\s+1805\s+951\s+\d+(m|h|d|mo|y) ago$/,
    );
    const byNew = await list(["acme/web", "-n", "1", "-s", "new"], undefined, { stdout: true });
    expect(byNew.stdout.split("\n")[3]).toMatch(
      /^ID\s+LEVEL\s+TITLE\s+EVENTS\s+USERS\s+FIRST SEEN\s+LAST SEEN$/,
    );
    expect(r.stderr).toBe(TIPS);
  });
});

describe("issue list unknown targets", () => {
  test("a project slug differing only in case: ResolutionError with did-you-mean, exit 23", async () => {
    const r = await runCli(["issue", "list", "acme/Web"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(23);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "Error: Project 'acme/Web' was not found.\n\nDid you mean acme/web? Slugs are case-sensitive.\n",
    );
    expect(api.requestsTo("/api/0/organizations/acme/issues/")).toHaveLength(0);
  });

  test("an unknown organization names the organization", async () => {
    const r = await runCli(["issue", "list", "nope/web"], { api, token: USER_TOKEN });
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toStartWith("Error: Organization 'nope' was not found.\n");
  });
});
