/** A query-wide change never stops silently at -n: the total is said, and asked about on a terminal. */
import { afterAll, expect, mock, test } from "bun:test";
import * as realPrompts from "@clack/prompts";
import { ISSUES_NOW_MS, issueJson, issueStore } from "../fake-api/routes/issues.ts";
import { USER_TOKEN } from "../fake-api/seed.ts";
import { runCli } from "../helpers/cli.ts";
import { useFakeApi } from "../helpers/fake-api.ts";

const api = useFakeApi();
const writes = () => api.requests.filter((q) => q.method === "PUT");

/** The level:info issues of acme/web seen in the last 90 days (what the search matches: a query replaces is:unresolved). */
function infoIssues() {
  const since = ISSUES_NOW_MS - 90 * 86_400_000;
  return issueStore(api.state).issues.filter(
    (x) => x.projectId === "300001" && x.level === "info" && x.lastSeen >= since,
  );
}

const asked: string[] = [];
const prompts = { ...realPrompts };
mock.module("@clack/prompts", () => ({
  ...prompts,
  confirm: async (o: { message: string }) => {
    asked.push(o.message);
    return false;
  },
}));
afterAll(() => {
  mock.module("@clack/prompts", () => prompts);
});

test("more matches than -n: stderr says how many match and how many change (X-Hits), then refuses without --yes", async () => {
  const total = infoIssues().length;
  expect(total).toBeGreaterThan(5);
  const r = await runCli(["issue", "resolve", "-q", "level:info", "acme/web", "-n", "5"], {
    api,
    token: USER_TOKEN,
  });
  expect(r.exitCode).toBe(21);
  expect(r.stderr).toStartWith(
    `${total} issues match; changing the first 5 (raise -n, at most 1,000)\n  WEB-`,
  );
  expect(writes()).toEqual([]);
});

test("--json --yes still says that the limit cut the matches short; exactly -n issues change", async () => {
  const total = infoIssues().length;
  const r = await runCli(["issue", "archive", "-q", "level:info", "acme/web", "-n", "3", "--yes", "--json"], {
    api,
    token: USER_TOKEN,
  });
  expect(r.exitCode).toBe(0);
  expect(r.stderr).toBe(`${total} issues match; changing the first 3 (raise -n, at most 1,000)\n`);
  expect(JSON.parse(r.stdout).changed).toHaveLength(3);
});

test("a dry run says what it would change", async () => {
  const total = infoIssues().length;
  const r = await runCli(["issue", "resolve", "-q", "level:info", "acme/web", "-n", "2", "--dry-run"], {
    api,
    token: USER_TOKEN,
  });
  expect(r.exitCode).toBe(0);
  expect(r.stderr).toStartWith(`${total} issues match; would change the first 2 (raise -n, at most 1,000)\n`);
});

test("every match fits: the usual preview line, no notice", async () => {
  const total = infoIssues().length;
  const r = await runCli(["issue", "resolve", "-q", "level:info", "acme/web", "-n", "1000", "--dry-run"], {
    api,
    token: USER_TOKEN,
  });
  expect(r.exitCode).toBe(0);
  expect(r.stderr).toStartWith(`${total} issues match 'level:info':\n`);
  expect(r.stderr).not.toContain("changing the first");
});

test("on a terminal without --yes the question names the exact number changed and the total", async () => {
  asked.length = 0;
  const total = infoIssues().length;
  const r = await runCli(["issue", "resolve", "-q", "level:info", "acme/web", "-n", "4"], {
    api,
    token: USER_TOKEN,
    terminal: { stdin: true, stderr: true },
  });
  expect(r.exitCode).toBe(0);
  expect(asked).toEqual([`Resolve the first 4 of the ${total} matching issues?`]);
  expect(r.stderr).toContain("Nothing was changed.");
  expect(writes()).toEqual([]);
});

test("without X-Hits, a next page means more match: 'more than N issues match'", async () => {
  asked.length = 0;
  const rows = infoIssues()
    .slice(0, 2)
    .map((x) => issueJson(api.state, x));
  const link = (cursor: string, rel: string, results: boolean) =>
    `<${api.urls.us}/api/0/organizations/acme/issues/?cursor=${cursor}>; rel="${rel}"; results="${results}"; cursor="${cursor}"`;
  api.inject({
    method: "GET",
    path: "/api/0/organizations/acme/issues/",
    status: 200,
    body: rows,
    headers: { Link: `${link("0:0:1", "previous", false)}, ${link("0:2:0", "next", true)}` },
  });
  const r = await runCli(["issue", "resolve", "-q", "level:info", "acme/web", "-n", "2"], {
    api,
    token: USER_TOKEN,
    terminal: { stdin: true, stderr: true },
  });
  expect(r.exitCode).toBe(0);
  expect(r.stderr).toStartWith("more than 2 issues match; changing the first 2 (raise -n, at most 1,000)\n");
  expect(asked).toEqual(["Resolve the first 2 issues (of more than 2 matching)?"]);
});
