import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { listIssuesFor } from "../../../src/commands/issue/list.ts";
import type { IssueListFlags } from "../../../src/commands/issue/index.ts";
import type { ListTarget } from "../../../src/lib/resolve/list-targets.ts";
import { lookupAlias } from "../../../src/lib/db/aliases.ts";
import { addIssue, clearIssues, ISSUES_NOW_MS } from "../../fake-api/routes/issues.ts";
import { startFakeApi, type FakeApi } from "../../fake-api/server.ts";
import { USER_TOKEN } from "../../fake-api/seed.ts";
import { createTestContext } from "../../helpers/context.ts";

let api: FakeApi;
beforeAll(async () => {
  api = await startFakeApi({
    setup: (state) => {
      // A small project with hand-made titles for the golden tests (wide characters included).
      clearIssues(state, "globex", "billing");
      const at = (minutes: number) => ISSUES_NOW_MS - minutes * 60_000;
      addIssue(state, "globex", "billing", {
        title: "TypeError: Cannot read properties of undefined (reading 'amount') in invoice renderer",
        count: 1234,
        userCount: 56,
        lastSeen: at(3),
        level: "error",
      });
      addIssue(state, "globex", "billing", {
        title: "💥 Payment webhook 数据库 timeout",
        count: 7,
        userCount: 1,
        lastSeen: at(3 * 60 + 5),
        level: "fatal",
      });
      addIssue(state, "globex", "billing", {
        title: "Slow query",
        count: 42,
        userCount: 0,
        lastSeen: at(3 * 24 * 60),
        level: "warning",
      });
    },
  });
});
afterAll(() => api.stop());
afterEach(() => {
  expect(api.unmatched).toEqual([]);
  api.reset();
});

const flags = (over: Partial<IssueListFlags> = {}): IssueListFlags => ({
  json: false,
  verbose: false,
  fresh: false,
  limit: 25,
  sort: "date",
  period: "90d",
  ...over,
});

function ctxFor(opts: { tty?: boolean; width?: number } = {}) {
  return createTestContext({
    api,
    env: { TRACKER_AUTH_TOKEN: USER_TOKEN },
    tty: opts.tty,
    terminalWidth: opts.width,
  });
}

const multi: ListTarget = {
  mode: "multi",
  projects: [
    { org: "acme", project: "web", source: ".env", alias: "w" },
    { org: "acme", project: "api", source: "api/.env", alias: "a" },
    { org: "globex", project: "billing", source: "billing/.env", alias: "b" },
  ],
};

describe("multi-project listing", () => {
  test("phase 1 asks each project for ceil(limit / n), in parallel; result trimmed to the limit", async () => {
    const t = ctxFor();
    await listIssuesFor.call(t.ctx, flags({ json: true, limit: 10 }), multi);
    const out = JSON.parse(t.stdout()) as {
      data: { alias: string; project: { slug: string } }[];
      hasMore: boolean;
    };
    expect(out.data).toHaveLength(10);
    expect(out.hasMore).toBe(true);
    const calls = api.requests.filter((r) => r.path.endsWith("/issues/"));
    expect(calls.map((c) => [c.host, c.query.get("limit")]).sort()).toEqual([
      ["de", "4"],
      ["us", "4"],
      ["us", "4"],
    ]);
    const perAlias = new Map<string, number>();
    for (const i of out.data) perAlias.set(i.alias, (perAlias.get(i.alias) ?? 0) + 1);
    // 4 + 4 + 3 fetched, one over the limit: billing's oldest (3 days) is trimmed; each project keeps some.
    expect(perAlias.get("b")).toBe(2);
    expect((perAlias.get("w") ?? 0) >= 1 && (perAlias.get("a") ?? 0) >= 1).toBe(true);
    expect(lookupAlias(t.ctx, "b")).toEqual({ alias: "b", org: "globex", project: "billing" });
    expect(lookupAlias(t.ctx, "w")).toEqual({ alias: "w", org: "acme", project: "web" });
  });

  test("phase 2 gives billing's unused quota to the projects that have more", async () => {
    const t = ctxFor();
    await listIssuesFor.call(t.ctx, flags({ json: true, limit: 30 }), multi);
    const out = JSON.parse(t.stdout()) as { data: unknown[] };
    expect(out.data).toHaveLength(30);
    const calls = api.requests.filter((r) => r.path.endsWith("/issues/"));
    // 10 each in phase 1; billing returned 3, so 7 more are shared by web and api (4 each) from their cursors.
    const phase2 = calls.filter((c) => c.query.has("cursor"));
    expect(phase2.map((c) => [c.query.get("limit"), c.query.get("cursor")])).toEqual([
      ["4", "0:10:0"],
      ["4", "0:10:0"],
    ]);
  });

  test("one failing project is reported on stderr and in JSON; the others still show", async () => {
    api.inject({
      path: "/api/0/organizations/globex/issues/",
      status: 500,
      body: { detail: "Internal Error" },
      times: 3,
    });
    const t = ctxFor();
    await listIssuesFor.call(t.ctx, flags({ json: true, limit: 6 }), multi);
    const out = JSON.parse(t.stdout()) as {
      data: { alias: string }[];
      errors: { project: string; message: string }[];
    };
    expect(out.data).toHaveLength(6);
    expect(new Set(out.data.map((i) => i.alias))).toEqual(new Set(["w", "a"]));
    expect(out.errors).toEqual([{ project: "globex/billing", message: "Request failed with status 500" }]);
    expect(t.stderr()).toContain(
      "Warning: Could not list issues of globex/billing: Request failed with status 500",
    );
  });

  test("when every project fails, the command fails", async () => {
    api.inject({
      path: /\/issues\/$/,
      status: 404,
      body: { detail: "The requested resource does not exist" },
      times: Number.POSITIVE_INFINITY,
    });
    const t = ctxFor();
    const two: ListTarget = {
      mode: "multi",
      projects: multi.mode === "multi" ? multi.projects.slice(0, 2) : [],
    };
    await expect(listIssuesFor.call(t.ctx, flags({ json: true }), two)).rejects.toMatchObject({
      status: 404,
    });
    expect(t.stdout()).toBe("");
  });

  test("--cursor is refused in multi-project mode", async () => {
    const t = ctxFor();
    await expect(listIssuesFor.call(t.ctx, flags({ cursor: "last" }), multi)).rejects.toMatchObject({
      name: "ValidationError",
    });
    expect(api.requests).toEqual([]);
  });

  test("human output: ALIAS column first and the alias tip", async () => {
    const t = ctxFor({ tty: true });
    await listIssuesFor.call(t.ctx, flags({ limit: 4 }), multi);
    const lines = t.stdout().split("\n");
    expect(lines[0]).toBe(
      "Issues in acme/web (w), acme/api (a), globex/billing (b) (is:unresolved, sorted by last seen, last 90d):",
    );
    expect(lines[2]).toMatch(/^ALIAS\s+ID\s+LEVEL\s+TITLE\s+EVENTS\s+USERS\s+LAST SEEN$/);
    expect(t.stderr()).toContain("Tip: view an issue by alias and suffix, e.g. tracker issue view ");
    expect(t.stderr()).toContain("Showing 4; more exist. Show more at once with -n (up to 1000).");
  });
});

describe("golden output", () => {
  const single: ListTarget = {
    mode: "single",
    project: { org: "globex", project: "billing", source: "argument" },
  };

  test("TTY at 72 columns: titles truncated by display width, relative times", async () => {
    const t = ctxFor({ tty: true, width: 72 });
    await listIssuesFor.call(t.ctx, flags(), single);
    expect(t.stdout()).toBe(
      [
        "Issues in globex/billing (is:unresolved, sorted by last seen, last 90d):",
        "",
        "ID         LEVEL    TITLE                       EVENTS  USERS  LAST SEEN",
        "BILLING-1  error    TypeError: Cannot read pr…    1234     56  3m ago",
        "BILLING-2  fatal    💥 Payment webhook 数据库…       7      1  3h ago",
        "BILLING-3  warning  Slow query                      42      0  3d ago",
        "",
      ].join("\n"),
    );
    expect(t.stderr()).toBe("Tip: tracker issue view BILLING-1 shows an issue with its latest event.\n");
    for (const line of t.stdout().split("\n")) expect(Bun.stringWidth(line)).toBeLessThanOrEqual(72);
  });

  test("non-TTY: tab-separated rows, full titles, RFC 3339 times, no title or tips", async () => {
    const t = ctxFor({ tty: false, width: 72 });
    await listIssuesFor.call(t.ctx, flags(), single);
    expect(t.stdout()).toBe(
      [
        "BILLING-1\terror\tTypeError: Cannot read properties of undefined (reading 'amount') in invoice renderer\t1234\t56\t2026-01-15T11:57:00Z",
        "BILLING-2\tfatal\t💥 Payment webhook 数据库 timeout\t7\t1\t2026-01-15T08:55:00Z",
        "BILLING-3\twarning\tSlow query\t42\t0\t2026-01-12T12:00:00Z",
        "",
      ].join("\n"),
    );
    expect(t.stderr()).toBe("");
  });
});
